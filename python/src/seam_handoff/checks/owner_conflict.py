"""No other agent accepted this task's hop (one owner at a time)."""

from .._catalogue import rule_reason
from .._records import Reason
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("owner-conflict", "ledger", "/to_agent/id")


def owner_conflict_reason(owner: str, hop_index: int | None, task_id: str | None) -> Reason:
    """owner: the agent that holds the hop."""
    return rule_reason(RULE.pointer, RULE.id, "owner", owner=quote_untrusted(owner), hop=str(hop_index), task=quote_untrusted(task_id))
