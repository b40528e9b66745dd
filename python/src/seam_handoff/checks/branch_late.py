"""A join takes each branch once and continues once: a handoff in a branch after its join fired
without it, or in a branch that reached the join already, is refused and discarded."""

from collections.abc import Sequence

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule
from .branch_open import branch_list

RULE: IngestRule = ingest_rule("branch-late", "ledger", "/hop/branch")


def branch_fired_reason(branch: str, task: str, join: str, hop: int, arrived: Sequence[str]) -> Reason:
    """The join fired at hop on the branches arrived (quoted)."""
    return rule_reason(RULE.pointer, RULE.id, "fired", branch=branch, task=task, join=join, hop=hop, arrived=branch_list(arrived))


def branch_arrived_reason(branch: str, task: str, join: str, hop: int) -> Reason:
    """The branch reached the join at hop."""
    return rule_reason(RULE.pointer, RULE.id, "arrived", branch=branch, task=task, join=join, hop=hop)


def branch_ended_reason(branch: str, task: str, hop: int) -> Reason:
    """The branch ended at a terminal of its own at hop (its last hop)."""
    return rule_reason(RULE.pointer, RULE.id, "ended", branch=branch, task=task, hop=hop)
