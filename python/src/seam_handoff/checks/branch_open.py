"""While a join waits for branches of a fan-out, the task goes on only inside them: a hop outside a
branch, or the task's end, is refused, naming the branches the join still waits for."""

from collections.abc import Sequence

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("branch-open", "ledger", "/hop")


def branch_open_reason(task: str, join: str, missing: Sequence[str]) -> Reason:
    """task, join and missing are quoted already."""
    return rule_reason(RULE.pointer, RULE.id, "waiting", task=task, join=join, missing=branch_list(missing))


def branch_list(ids: Sequence[str]) -> str:
    """Branch ids as words: branch a/b, branches a/b and a/c, branches a/b, a/c and a/d."""
    if len(ids) == 1:
        return f"branch {ids[0]}"
    return f"branches {', '.join(ids[:-1])} and {ids[-1]}"
