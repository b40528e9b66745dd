"""The reason for a delivery the task ledger found out of turn for the task's fan-out (a BranchOut
claim; the port of src/runtime/branch-reasons.ts). The delivery's own branch comes from the graph;
what the store returns (agents, other branches) is quoted."""

from ._envelope_check import Content
from ._records import Reason
from ._stores import BranchOut, ClaimBranch
from ._untrusted import quote_untrusted
from .checks.branch_late import branch_arrived_reason, branch_ended_reason, branch_fired_reason
from .checks.branch_open import branch_open_reason
from .checks.branch_unknown import branch_reopened_reason, branch_unopened_reason


def branch_reason(content: Content, claimed: BranchOut) -> Reason:
    """Words a BranchOut claim. Raises TypeError for a state the runtime does not know (a store's bug)."""
    task = quote_untrusted(content.task_id)
    branch: ClaimBranch | None = content.branch
    join = "its join" if claimed.join is None else quote_untrusted(claimed.join)
    state = claimed.state
    if state == "open":
        return branch_open_reason(task, join, [quote_untrusted(branch_id) for branch_id in claimed.missing])
    if branch is not None:
        if state == "late":
            return branch_fired_reason(
                branch.id, task, join, claimed.hop or 0, [quote_untrusted(branch_id) for branch_id in claimed.arrived]
            )
        if state == "ended":
            return branch_ended_reason(branch.id, task, claimed.hop or 0)
        if state == "arrived":
            return branch_arrived_reason(branch.id, task, join, claimed.hop or 0)
        if state == "unopened":
            return branch_unopened_reason(branch.id, task, branch.from_agent, branch.agent)
        if state == "reopened":
            return branch_reopened_reason(branch.id, task, claimed.hop or 0)
    where = "in no branch" if branch is None else f"in branch {branch.id}"
    raise TypeError(f"seen.claim returned a branch answer {quote_untrusted(state)} for a delivery {where}")
