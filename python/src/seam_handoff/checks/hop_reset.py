"""hop.index is not below the task's next hop (a counter reset disables the hop limit)."""

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("hop-reset", "ledger", "/hop/index")


def hop_reset_reason(hop: int | None, task: str, ledger: str | None) -> Reason:
    """ledger words the task's last hop; None for a task with no accepted hop."""
    if ledger is None:
        return rule_reason(RULE.pointer, RULE.id, "first", hop=str(hop), task=task)
    return rule_reason(RULE.pointer, RULE.id, "reset", hop=str(hop), task=task, ledger=ledger)
