"""A counter with a budget.limit is reported in budget.consumed: an omitted one is never compared."""

from typing import Any

from .._catalogue import rule_reason
from .._fields import BUDGET_COUNTERS, whole_number
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("budget-counter-missing", "envelope", "/budget/consumed/<counter>")


def check_counters_reported(consumed: dict[str, Any], caps: dict[str, Any], reasons: list[Reason]) -> None:
    """consumed and caps: the envelope's budget.consumed and budget.limit."""
    for counter in BUDGET_COUNTERS:
        if counter in consumed or counter not in caps:
            continue
        cap = whole_number(caps.get(counter))
        if cap is not None:
            reasons.append(rule_reason(f"/budget/consumed/{counter}", RULE.id, "missing", counter=counter, limit=cap))
