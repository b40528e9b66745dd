"""A join given up on (its deadline passed, or too few branches can still arrive), as accept()
words and records it (the port of src/runtime/join-refusal.ts): the join-expired and join-failed
reasons, and the join of a rejection, a finish record and join_state's answer."""

from collections.abc import Callable

from ._records import Reason
from ._stores import JoinClosed
from ._untrusted import quote_untrusted
from .checks.join_expired import join_expired_reason
from .checks.join_failed import join_failed_reason


def join_refusal(closed: JoinClosed, iso: Callable[[int], str]) -> dict[str, object]:
    """The join of a rejection or finish record, as the JavaScript runtime returns it: agent,
    state, policy, acts, missing, ended and the deadline (ISO 8601, UTC; None without one)."""
    return {
        "agent": closed.join,
        "state": closed.state,
        "policy": closed.policy,
        "acts": closed.acts,
        "missing": list(closed.missing),
        "ended": list(closed.ended),
        "deadline": None if closed.deadline is None else iso(closed.deadline),
    }


def join_reason(pointer: str, task_id: str, closed: JoinClosed, iso: Callable[[int], str]) -> Reason:
    """The join-expired or join-failed reason at pointer; the store's ids are quoted."""
    task = quote_untrusted(task_id)
    join = quote_untrusted(closed.join)
    terminal = None if closed.policy == "escalate" else quote_untrusted(closed.policy)
    if closed.state == "expired":
        deadline = "its deadline" if closed.deadline is None else iso(closed.deadline)
        return join_expired_reason(pointer, task, join, deadline, [quote_untrusted(b) for b in closed.missing], terminal)
    return join_failed_reason(pointer, task, join, [quote_untrusted(b) for b in closed.ended], terminal)
