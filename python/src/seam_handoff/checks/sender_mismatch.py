"""`from_agent.id` is the sender the transport authenticated (`sender`: an mTLS subject, a signed
token's subject, a queue's producer id). Without sender, from_agent is only a claim. A mismatch is
refused before the ledger is asked: it counts against no one, and it can neither spend the named
producer's repairs nor take a handoff_id the real one will use."""

from .._catalogue import rule_reason
from .._records import Reason
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("sender-mismatch", "envelope", "/from_agent/id")


def check_sender(producer: str | None, sender: str | None, reasons: list[Reason]) -> bool:
    """Returns whether the envelope's producer is not the authenticated sender."""
    if sender is None or producer == sender:
        return False
    shown = "(no from_agent.id)" if producer is None else quote_untrusted(producer)
    reasons.append(rule_reason(RULE.pointer, RULE.id, "claimed", claimed=shown, sender=quote_untrusted(sender)))
    return True
