/**
 * The reasons for a delivery the task ledger found out of turn (a `custody` claim): one per
 * fault, each at the field that is wrong, each naming the task's owner and last accepted hop (or,
 * for a task with no accepted hop, that it starts at hop 1). The words are the rule modules'.
 */
import { quoteUntrusted } from "../core/untrusted-text.js";
import type { ContentVerdict } from "./envelope-check.js";
import { approvalCiteReason, approvalPendingReason } from "./checks/approval-pending.js";
import { budgetConsumedReason } from "./checks/budget-consumed-decreased.js";
import { budgetLimitReason } from "./checks/budget-limit-raised.js";
import { budgetOvercommittedReason } from "./checks/budget-overcommitted.js";
import { hopResetReason } from "./checks/hop-reset.js";
import { hopSkippedReason } from "./checks/hop-skipped.js";
import { notOwnerReason } from "./checks/not-owner.js";
import { pathDisagreesReason } from "./checks/path-disagrees.js";
import type { Reason } from "./reason.js";
import type { ClaimResult, CustodyFault } from "./seen-store.js";

type Custody = Extract<ClaimResult, { outcome: "custody" }>;

/**
 * Words the faults of a `custody` claim.
 *
 * @param content - the delivery's content verdict (its header names the task and hop)
 * @param claimed - the store's answer
 */
export function custodyReasons(content: ContentVerdict, claimed: Custody): Reason[] {
  const task = quoteUntrusted(content.taskId);
  const index = content.hopIndex as number;
  const { lastHop } = claimed;
  const started = claimed.owner !== null && lastHop !== null;
  const owner = started ? quoteUntrusted(claimed.owner) : "";
  const ledger = started ? `hop ${lastHop} was accepted last, by ${owner}, so the next hop is ${(lastHop as number) + 1}` : null;
  return claimed.faults.map((fault) => {
    switch (fault.kind) {
      case "reset":
        return hopResetReason(index, task, ledger);
      case "skip":
        return hopSkippedReason(index, task, lastHop, ledger);
      case "producer":
        if (!started) return unknownFault(fault);
        return notOwnerReason(content.producer === undefined ? "a producer with no from_agent.id" : quoteUntrusted(content.producer), task, owner, lastHop as number, chainBranch(content));
      case "path":
        if (ledger === null) return unknownFault(fault);
        return pathDisagreesReason(fault.index, quoteUntrusted(content.path?.[fault.index]), task, quoteUntrusted(fault.expected), ledger);
      case "budget-limit":
        return budgetLimitReason(fault.counter, content.budget?.limit?.[fault.counter] ?? null, fault.before, fault.hop);
      case "budget-consumed":
        return budgetConsumedReason(fault.counter, content.budget?.consumed?.[fault.counter] ?? null, fault.before, fault.hop);
      case "budget-overcommitted":
        // Only a branch's delegation is split: the content names the branch.
        return budgetOvercommittedReason(content.branch?.id ?? quoteUntrusted(content.producer), fault);
      case "approval":
        return approvalPendingReason(task, fault.pending, content.approval?.cites ?? null);
      case "approval-cite":
        if (content.approval?.cites == null) return unknownFault(fault);
        return approvalCiteReason(task, content.approval.cites, fault.expected);
      default:
        return unknownFault(fault);
    }
  });
}

/**
 * The branch whose own chain of custody the store judged the delivery on: a hop inside a branch
 * (its delegation is judged on the task's chain, from the fan-out's base), else `null`.
 */
function chainBranch(content: ContentVerdict): string | null {
  return content.branch !== null && !content.branch.opens ? content.branch.id : null;
}

function unknownFault(fault: CustodyFault): never {
  throw new TypeError(`options.seen.claim returned an unknown custody fault ${quoteUntrusted((fault as { kind?: unknown }).kind)}`);
}
