"""The reasons for a delivery the task ledger found out of turn (a Custody claim; the port of
src/runtime/custody-reasons.ts): one per fault, each at the field that is wrong, each naming the
task's owner and last accepted hop (or, for a task with no accepted hop, that it starts at hop 1).
The words are the rule modules'."""

from typing import NoReturn

from ._envelope_check import Content
from ._records import Reason
from ._stores import Custody, CustodyFault
from ._untrusted import quote_untrusted
from .checks.approval_pending import approval_cite_reason, approval_pending_reason
from .checks.budget_consumed_decreased import budget_consumed_reason
from .checks.budget_limit_raised import budget_limit_reason
from .checks.budget_overcommitted import budget_overcommitted_reason
from .checks.hop_reset import hop_reset_reason
from .checks.hop_skipped import hop_skipped_reason
from .checks.not_owner import not_owner_reason
from .checks.path_disagrees import path_disagrees_reason


def _unknown_fault(fault: CustodyFault) -> NoReturn:
    raise TypeError(f"seen.claim returned an unknown custody fault {quote_untrusted(fault.kind)}")


def custody_reasons(content: Content, claimed: Custody) -> list[Reason]:
    """Words the faults of a Custody claim. content: the delivery's content (its header names the
    task and hop); claimed: the store's answer. Raises TypeError for a fault kind no store makes."""
    task = quote_untrusted(content.task_id)
    index = content.hop_index
    last_hop = claimed.last_hop
    started = claimed.owner is not None and last_hop is not None
    owner = quote_untrusted(claimed.owner) if started else ""
    ledger = (
        f"hop {last_hop} was accepted last, by {owner}, so the next hop is {last_hop + 1}" if last_hop is not None and started else None
    )
    out: list[Reason] = []
    budget = content.budget
    for fault in claimed.faults:
        kind = fault.kind
        if kind == "reset":
            out.append(hop_reset_reason(index, task, ledger))
        elif kind == "skip":
            out.append(hop_skipped_reason(index, task, last_hop if started else None, ledger))
        elif kind == "producer" and last_hop is not None and started:
            producer = "a producer with no from_agent.id" if content.producer is None else quote_untrusted(content.producer)
            # A hop inside a branch is judged on the branch's own chain (its delegation, on the task's).
            branch = content.branch.id if content.branch is not None and not content.branch.opens else None
            out.append(not_owner_reason(producer, task, owner, last_hop, branch))
        elif kind == "path" and ledger is not None:
            position = fault.position
            path = content.path
            said = path[position] if path is not None and position is not None and position < len(path) else None
            out.append(path_disagrees_reason(position, quote_untrusted(said), task, quote_untrusted(fault.expected), ledger))
        elif kind == "budget-limit" and fault.counter is not None:
            limit = None if budget is None or budget.limit is None else budget.limit.get(fault.counter)
            out.append(budget_limit_reason(fault.counter, limit, fault.before, fault.hop))
        elif kind == "budget-consumed" and fault.counter is not None:
            spent = None if budget is None or budget.consumed is None else budget.consumed.get(fault.counter)
            out.append(budget_consumed_reason(fault.counter, spent, fault.before, fault.hop))
        elif kind == "approval" and fault.expected is not None:
            out.append(approval_pending_reason(task, fault.expected, None if content.approval is None else content.approval.cites))
        elif kind == "approval-cite" and fault.expected is not None and content.approval is not None and content.approval.cites is not None:
            out.append(approval_cite_reason(task, content.approval.cites, fault.expected))
        elif (
            kind == "budget-overcommitted"
            and fault.counter is not None
            and fault.parent is not None
            and fault.spent is not None
            and fault.hop is not None
        ):
            # Only a branch's delegation is split: the content names the branch.
            branch = content.branch.id if content.branch is not None else quote_untrusted(content.producer)
            out.append(
                budget_overcommitted_reason(branch, fault.counter, fault.limit, fault.parent, fault.spent, fault.hop, fault.taken or 0)
            )
        else:
            _unknown_fault(fault)
    return out
