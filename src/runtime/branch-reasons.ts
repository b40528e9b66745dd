/**
 * The reason for a delivery the task ledger found out of turn for the task's fan-out (a `branch`
 * claim): a hop while the join waits, a late branch, a branch not opened or opened twice. The
 * words are the rule modules'.
 */
import { quoteUntrusted } from "../core/untrusted-text.js";
import { branchArrivedReason, branchEndedReason, branchFiredReason } from "./checks/branch-late.js";
import { branchOpenReason } from "./checks/branch-open.js";
import { branchReopenedReason, branchUnopenedReason } from "./checks/branch-unknown.js";
import type { ContentVerdict } from "./envelope-check.js";
import type { Reason } from "./reason.js";
import type { ClaimResult } from "./seen-store.js";

type BranchClaim = Extract<ClaimResult, { outcome: "branch" }>;

/**
 * Words a `branch` claim. The delivery's own branch comes from the graph (the content check
 * matched `hop.branch` against it); what the store returns (agents, other branches) is quoted.
 *
 * @throws TypeError for a state the runtime does not know (a store's bug)
 */
export function branchReason(content: ContentVerdict, claimed: BranchClaim): Reason {
  const task = quoteUntrusted(content.taskId);
  const branch = content.branch;
  const join = claimed.join === null ? "its join" : quoteUntrusted(claimed.join);
  switch (claimed.state) {
    case "open":
      return branchOpenReason(task, join, claimed.missing.map((id) => quoteUntrusted(id)));
    case "late":
      if (branch === null) break;
      return branchFiredReason(branch.id, task, join, claimed.hop ?? 0, claimed.arrived.map((id) => quoteUntrusted(id)));
    case "arrived":
      if (branch === null) break;
      return branchArrivedReason(branch.id, task, join, claimed.hop ?? 0);
    case "ended":
      if (branch === null) break;
      return branchEndedReason(branch.id, task, claimed.hop ?? 0);
    case "unopened":
      if (branch === null) break;
      return branchUnopenedReason(branch.id, task, branch.from, branch.agent);
    case "reopened":
      if (branch === null) break;
      return branchReopenedReason(branch.id, task, claimed.hop ?? 0);
    default:
      break;
  }
  throw new TypeError(`options.seen.claim returned a branch answer ${quoteUntrusted(claimed.state)} for a delivery ${branch === null ? "in no branch" : `in branch ${branch.id}`}`);
}
