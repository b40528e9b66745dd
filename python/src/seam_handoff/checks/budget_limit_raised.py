"""Budgets hold across hops: the ledger keeps the budget of the task's last accepted hop, and a
later hop may not raise (or drop) a budget.limit counter. Found by the store (a custody fault
budget-limit), worded here."""

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("budget-limit-raised", "ledger", "/budget/limit/<counter>")


def budget_limit_reason(counter: str, limit: int | None, before: object, hop: object) -> Reason:
    """limit None: the envelope states no limit for the counter; before and hop: the ledger's limit and the hop that set it."""
    path = f"/budget/limit/{counter}"
    if limit is None:
        return rule_reason(path, RULE.id, "dropped", counter=counter, before=before, hop=hop)
    return rule_reason(path, RULE.id, "raised", counter=counter, limit=limit, before=before, hop=hop)
