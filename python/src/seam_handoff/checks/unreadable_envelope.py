"""Reading the envelope does not raise (a mapping or str subclass whose methods raise): plain JSON data never does."""

from .._catalogue import rule_reason
from .._records import Reason
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("unreadable-envelope", "schema", "")


def unreadable_reason(error: BaseException) -> Reason:
    """The one reason of an envelope whose reading raised error."""
    return rule_reason(RULE.pointer, RULE.id, "threw", why=quote_untrusted(str(error)))
