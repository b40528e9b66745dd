"""Approval gates at ingest (docs/language.md, Approval gates). What leaves a gate (an agent or an
edge marked gate) is no longer waiting for review; and while a task waits for an approval (the
ledger accepted a handoff of it with status waiting_review), every hop of the task but the
resumption that cites that handoff in approval.pending_handoff_id is refused. The first is a
check of the envelope; the second the task ledger's (a custody fault of the store). An approval
that cites a handoff while none is pending must cite the task's last accepted handoff: an
approval answers the handoff it follows."""

from .._catalogue import rule_reason
from .._records import Reason
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("approval-pending", "ledger", "/approval/pending_handoff_id")


def check_gate_status(status: object, gate: str, reasons: list[Reason]) -> None:
    """status waiting_review leaving the approval gate gate (an agent's id, or an edge in words)."""
    if status == "waiting_review":
        reasons.append(rule_reason("/status", RULE.id, "gate", gate=gate))


def approval_pending_reason(task: str, pending: str, cited: str | None) -> Reason:
    """The task waits for approval of handoff pending; the delivery cites cited (None: no
    approval record). task is quoted already."""
    if cited is None:
        return rule_reason("/approval", RULE.id, "pending", task=task, pending=quote_untrusted(pending))
    return rule_reason(RULE.pointer, RULE.id, "other", task=task, pending=quote_untrusted(pending), cited=quote_untrusted(cited))


def approval_cite_reason(task: str, cited: str, expected: str) -> Reason:
    """No approval is pending, and the delivery cites cited, not the task's last accepted handoff
    expected ("": the task has none yet). task is quoted already."""
    if expected == "":
        return rule_reason(RULE.pointer, RULE.id, "none", task=task, cited=quote_untrusted(cited))
    return rule_reason(RULE.pointer, RULE.id, "unknown", task=task, cited=quote_untrusted(cited), expected=quote_untrusted(expected))
