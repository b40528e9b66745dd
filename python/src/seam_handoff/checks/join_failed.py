"""A join whose condition can no longer be met: branches it waits for ended at a terminal of their
own, leaving fewer than it needs. The store acts on the join's otherwise policy, once, and refuses
the task's handoffs that the join would have taken (the store's JoinGivenUp answer, state "failed")."""

from collections.abc import Sequence

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule
from .branch_open import branch_list

RULE: IngestRule = ingest_rule("join-failed", "ledger", "/hop/branch")


def join_failed_reason(pointer: str, task: str, join: str, ended: Sequence[str], terminal: str | None) -> Reason:
    """As join_expired_reason: ended are the quoted ids of the branches that ended."""
    words = {"task": task, "join": join, "ended": branch_list(ended) if ended else "no branch", "terminal": terminal or ""}
    return rule_reason(pointer, RULE.id, "escalate" if terminal is None else "terminal", **words)
