"""from_agent.id is the task's owner, the receiver of its last accepted hop (inside a branch, the
branch's)."""

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("not-owner", "ledger", "/from_agent/id")


def not_owner_reason(producer: str, task: str, owner: str, last_hop: int, branch: str | None = None) -> Reason:
    """producer, task and owner are quoted already. branch: the fan-out branch (hop.branch,
    checked against the graph) whose own chain the hop was judged on, so the message names whose
    turn it is there; None for the task's chain."""
    if branch is not None:
        return rule_reason(RULE.pointer, RULE.id, "branch", producer=producer, branch=branch, task=task, owner=owner, last=last_hop)
    return rule_reason(RULE.pointer, RULE.id, "producer", producer=producer, task=task, owner=owner, last=last_hop)
