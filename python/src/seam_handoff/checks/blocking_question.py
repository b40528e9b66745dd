"""An open question marked blocking stops a ready or partial envelope (or one with no status): the
work cannot go on. A hand-back that says it waits (status blocked or waiting_review) is exactly
what carries such a question, so there it is what the envelope waits on, and the envelope is
accepted with its route (human_input, approval)."""

from typing import cast

from .._catalogue import rule_reason
from .._fields import field
from .._records import Reason
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("blocking-question", "envelope", "/open_questions/<i>/blocking")


def check_blocking_questions(questions: object, status: object, reasons: list[Reason]) -> None:
    """questions and status: the envelope's open_questions and status."""
    if not isinstance(questions, list) or status in ("blocked", "waiting_review"):
        return
    for i, question in enumerate(cast("list[object]", questions)):
        if field(question, "blocking") is True:
            text = field(question, "question")
            shown = quote_untrusted(text) if isinstance(text, str) else "(no question text)"
            reasons.append(rule_reason(f"/open_questions/{i}/blocking", RULE.id, "unresolved", question=shown))
