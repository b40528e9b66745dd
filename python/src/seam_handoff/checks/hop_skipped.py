"""hop.index is not past the task's next hop (a hop no one accepted)."""

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("hop-skipped", "ledger", "/hop/index")


def hop_skipped_reason(hop: int | None, task: str, last_hop: int | None, ledger: str | None) -> Reason:
    """last_hop and ledger word the task's last hop; both None for a task with no accepted hop."""
    if last_hop is None or ledger is None or hop is None:
        return rule_reason(RULE.pointer, RULE.id, "first", hop=str(hop), task=task)
    missing = f"hop {last_hop + 1}" if hop - 1 == last_hop + 1 else f"hops {last_hop + 1} to {hop - 1}"
    return rule_reason(RULE.pointer, RULE.id, "skip", hop=hop, task=task, missing=missing, ledger=ledger)
