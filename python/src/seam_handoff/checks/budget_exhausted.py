"""Each budget.consumed counter is below its budget.limit."""

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("budget-exhausted", "envelope", "/budget/consumed/<counter>")


def check_counters(spent: dict[str, int] | None, limit: dict[str, int], reasons: list[Reason]) -> None:
    """spent and limit: the whole-number counters of the envelope's budget.consumed and
    budget.limit, in schema order (None: no counter spent); the pipeline reads them once, for
    these checks and the ledger alike, and a counter that is no whole number is in neither."""
    if spent is None:
        return
    for counter, cap in limit.items():
        used = spent.get(counter)
        if used is not None and used >= cap:
            reasons.append(rule_reason(f"/budget/consumed/{counter}", RULE.id, "spent", counter=counter, spent=used, limit=cap))
