"""Each budget.consumed counter is below its budget.limit."""

from typing import Any

from .._catalogue import rule_reason
from .._fields import BUDGET_COUNTERS, MAX_SAFE_INTEGER, whole_number
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("budget-exhausted", "envelope", "/budget/consumed/<counter>")


def check_counters(consumed: dict[str, Any], caps: dict[str, Any], reasons: list[Reason]) -> None:
    """consumed and caps: the envelope's budget.consumed and budget.limit."""
    for counter in BUDGET_COUNTERS:
        # `in` first: most counters are absent from one side, and a lookup costs more.
        if counter not in consumed or counter not in caps:
            continue
        spent = consumed[counter]
        cap = caps[counter]
        if spent is None or cap is None:
            continue
        # An int in range is the common case; anything else (3.0, a bool) goes through whole_number.
        spent = spent if type(spent) is int and 0 <= spent <= MAX_SAFE_INTEGER else whole_number(spent)
        cap = cap if type(cap) is int and 0 <= cap <= MAX_SAFE_INTEGER else whole_number(cap)
        if spent is not None and cap is not None and spent >= cap:
            reasons.append(rule_reason(f"/budget/consumed/{counter}", RULE.id, "spent", counter=counter, spent=spent, limit=cap))
