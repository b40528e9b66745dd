"""Ids the ledger keeps are bounded: task_id (the key of a task's ledger) and the agent ids (the
producer and receiver it records) at most MAX_ID_LENGTH UTF-16 code units, as JavaScript counts
a string's length. A longer one is refused before the store is asked, so the store never holds
attacker-sized ids."""

from typing import Final

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("id-too-long", "envelope", "/task_id")

MAX_ID_LENGTH: Final = 256
"""The longest id the runtime keeps, in UTF-16 code units."""


def _utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def check_id_lengths(task_id: str | None, producer: str | None, receiver: str | None, reasons: list[Reason]) -> bool:
    """Returns whether any of the ids is too long."""
    # A str of at most 128 code points is at most 256 UTF-16 code units: the common case, at once.
    half = MAX_ID_LENGTH // 2
    if (
        (task_id is None or len(task_id) <= half)
        and (producer is None or len(producer) <= half)
        and (receiver is None or len(receiver) <= half)
    ):
        return False
    found = False
    for path, value in (("/task_id", task_id), ("/from_agent/id", producer), ("/to_agent/id", receiver)):
        # A str of at most 128 code points is at most 256 UTF-16 code units: no encoding needed.
        if value is not None and len(value) > MAX_ID_LENGTH // 2 and (length := _utf16_length(value)) > MAX_ID_LENGTH:
            reasons.append(rule_reason(path, RULE.id, "long", length=length, limit=MAX_ID_LENGTH))
            found = True
    return found
