"""A join waits within N seconds of its fan-out: once that deadline passed before its condition was
met, the store acts on the join's otherwise policy, once, and refuses the task's handoffs that the
join would have taken (the store's JoinGivenUp answer, state "expired")."""

from collections.abc import Sequence

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule
from .branch_open import branch_list

RULE: IngestRule = ingest_rule("join-expired", "ledger", "/hop/branch")


def join_expired_reason(pointer: str, task: str, join: str, deadline: str, missing: Sequence[str], terminal: str | None) -> Reason:
    """task, join, missing and terminal are quoted already (terminal None: otherwise escalate);
    deadline is ISO 8601; pointer is /hop/branch for a handoff in a branch, /hop for another."""
    words = {
        "task": task,
        "join": join,
        "deadline": deadline,
        "missing": branch_list(missing) if missing else "no branch",
        "terminal": terminal or "",
    }
    return rule_reason(pointer, RULE.id, "escalate" if terminal is None else "terminal", **words)
