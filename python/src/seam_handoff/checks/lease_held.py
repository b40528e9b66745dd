"""A handoff claimed under a live lease, not yet committed, is not processed a second time meanwhile (see SeenStore, claim leases)."""

from collections.abc import Callable

from .._catalogue import rule_reason
from .._records import Reason
from .._stores import Leased
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("lease-held", "ledger", "/handoff_id")


def lease_held_reason(handoff_id: str | None, claimed: Leased, iso_time: Callable[[int], str]) -> Reason:
    """The reason of a Leased claim: who holds the handoff, since when and until when (iso_time formats ms as ISO 8601)."""
    return rule_reason(
        RULE.pointer,
        RULE.id,
        "held",
        handoff=quote_untrusted(handoff_id),
        receiver=quote_untrusted(claimed.holder.receiver),
        at=iso_time(claimed.holder.at),
        until=iso_time(claimed.until),
    )
