"""A counter with a budget.limit is reported in budget.consumed: an omitted one is never compared."""

from typing import Any

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("budget-counter-missing", "envelope", "/budget/consumed/<counter>")


def check_counters_reported(consumed: dict[str, Any], limit: dict[str, int], reasons: list[Reason]) -> None:
    """consumed: the envelope's budget.consumed; limit: the whole-number counters of its
    budget.limit, in schema order. A counter absent from consumed is missing (a null one is
    reported, only not a number)."""
    for counter, cap in limit.items():
        if counter not in consumed:
            reasons.append(rule_reason(f"/budget/consumed/{counter}", RULE.id, "missing", counter=counter, limit=cap))
