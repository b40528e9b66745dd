"""A fan-out splits what the parent task has left: the budget.limit counters of its branches add
up to at most the parent's limit less its spend at the fan-out, and no branch drops a limit the
parent has. Found by the store (a custody fault budget-overcommitted), worded here."""

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("budget-overcommitted", "ledger", "/budget/limit/<counter>")


def budget_overcommitted_reason(branch: str, counter: str, limit: int | None, parent: int, spent: int, hop: int, taken: int) -> Reason:
    """branch: the branch id (from the graph); limit None: the branch sets none; parent and spent:
    the parent's limit and spend at the fan-out, hop; taken: the other branches' limits."""
    path = f"/budget/limit/{counter}"
    if limit is None:
        return rule_reason(path, RULE.id, "unlimited", counter=counter, branch=branch, parent=parent, spent=spent, hop=hop)
    return rule_reason(
        path,
        RULE.id,
        "over",
        counter=counter,
        branch=branch,
        parent=parent,
        spent=spent,
        hop=hop,
        limit=limit,
        left=max(0, parent - spent),
        taken=taken,
    )
