"""The receiver can read every required artefact (can_read)."""

from .._catalogue import rule_reason
from .._records import Reason
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("artefact-unreadable", "artefacts", "/artefacts/<i>/ref")


def artefact_reason(me: str, index: int, ref: str) -> Reason:
    """The reason for required artefact number index (its ref) that me cannot read."""
    return rule_reason(f"/artefacts/{index}/ref", RULE.id, "unreadable", me=me, ref=quote_untrusted(ref))
