"""The task has not ended at a terminal (finish)."""

from collections.abc import Callable

from .._catalogue import rule_reason
from .._records import Reason
from .._stores import TaskEnd
from .._untrusted import quote_untrusted
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("task-finished", "ledger", "/task_id")


def ended_reason(task_id: str | None, ended: TaskEnd, iso_time: Callable[[int], str]) -> Reason:
    """ended: the store's record of the end; iso_time formats its time (milliseconds since the Unix epoch)."""
    return rule_reason(
        RULE.pointer,
        RULE.id,
        "ended",
        task=quote_untrusted(task_id),
        at=iso_time(ended.at),
        after="" if ended.hop_index is None else f" after hop {ended.hop_index}",
        agent=quote_untrusted(ended.agent),
        terminal=quote_untrusted(ended.terminal),
        outcome=quote_untrusted(ended.outcome),
    )
