"""With a store, the envelope has a str task_id: its refusals can be counted."""

from typing import Final

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("untracked-task", "ledger", "/task_id")

UNTRACKED_REASON: Final[Reason] = rule_reason(RULE.pointer, RULE.id, "untracked")
"""The one reason of an untracked task (it carries nothing of the envelope)."""
