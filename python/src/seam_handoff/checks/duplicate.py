"""The handoff (a redelivery) or the task's latest hop (a replay) was not accepted before."""

from .._catalogue import rule_reason
from .._records import Reason
from .._stores import Duplicate
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("duplicate", "ledger", "/handoff_id")


def duplicate_reason(handoff_id: str | None, task_id: str | None, hop_index: int | None, claimed: Duplicate) -> Reason:
    """The reason for the store's duplicate answer to the claim of this header."""
    if claimed.of == "handoff":
        return rule_reason("/handoff_id", RULE.id, "handoff", handoff=quote_untrusted(handoff_id))
    holder = claimed.holder
    return rule_reason(
        "/hop/index",
        RULE.id,
        "hop",
        hop=str(hop_index),
        task=quote_untrusted(task_id),
        receiver=quote_untrusted(holder.receiver),
        handoff=quote_untrusted(holder.handoff_id),
    )
