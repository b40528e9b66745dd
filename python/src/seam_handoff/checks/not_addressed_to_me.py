"""The envelope is addressed to the receiving agent."""

from .._catalogue import rule_reason
from .._records import Reason
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("not-addressed-to-me", "envelope", "/to_agent/id")


def check_addressee(to: str | None, me: str, reasons: list[Reason]) -> None:
    """to: to_agent.id when it is a str."""
    if to is not None and to != me:
        reasons.append(rule_reason(RULE.pointer, RULE.id, "other", to=quote_untrusted(to), me=quote_untrusted(me)))
