"""from_agent.id is the task's owner, the receiver of its last accepted hop."""

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("not-owner", "ledger", "/from_agent/id")


def not_owner_reason(producer: str, task: str, owner: str, last_hop: int) -> Reason:
    """producer, task and owner are quoted already."""
    return rule_reason(RULE.pointer, RULE.id, "producer", producer=producer, task=task, owner=owner, last=last_hop)
