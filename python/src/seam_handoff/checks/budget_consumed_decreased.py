"""Spend never goes backwards: a budget.consumed counter is at least what the task's last accepted
hop reported. Found by the store (a custody fault budget-consumed), worded here."""

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("budget-consumed-decreased", "ledger", "/budget/consumed/<counter>")


def budget_consumed_reason(counter: str, spent: int | None, before: object, hop: object) -> Reason:
    """spent None: the counter is not reported; before and hop: the ledger's count and the hop that reported it."""
    path = f"/budget/consumed/{counter}"
    if spent is None:
        return rule_reason(path, RULE.id, "hidden", counter=counter, before=before, hop=hop)
    return rule_reason(path, RULE.id, "decreased", counter=counter, spent=spent, before=before, hop=hop)
