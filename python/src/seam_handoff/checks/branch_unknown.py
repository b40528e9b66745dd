"""A branch opens once, with its fan-out's delegation, and later handoffs in it need it open."""

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("branch-unknown", "ledger", "/hop/branch")


def branch_unopened_reason(branch: str, task: str, sender: str, agent: str) -> Reason:
    """sender -> agent is the branch's delegation (graph words); task is quoted."""
    return rule_reason(RULE.pointer, RULE.id, "unopened", branch=branch, task=task, **{"from": sender}, agent=agent)


def branch_reopened_reason(branch: str, task: str, hop: int) -> Reason:
    """The branch was opened at hop."""
    return rule_reason(RULE.pointer, RULE.id, "reopened", branch=branch, task=task, hop=hop)
