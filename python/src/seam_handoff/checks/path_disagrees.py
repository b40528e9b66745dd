"""Each hop.path entry the ledger recorded is the agent it recorded."""

from .._catalogue import rule_reason
from .._records import Reason
from ._rule import IngestRule, ingest_rule

RULE: IngestRule = ingest_rule("path-disagrees", "ledger", "/hop/path/<i>")


def path_disagrees_reason(index: int | None, agent: str, task: str, expected: str, ledger: str) -> Reason:
    """agent, task and expected are quoted already; ledger words the task's last hop."""
    return rule_reason(f"/hop/path/{index}", RULE.id, "step", agent=agent, task=task, expected=expected, ledger=ledger)
