/**
 * A join whose condition can no longer be met: branches it waits for ended at a terminal of their
 * own, leaving fewer than it needs. The store acts on the join's `otherwise` policy, once, and
 * refuses the task's handoffs that the join would have taken (the store's `join` outcome, state
 * `failed`).
 */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";
import { branchList } from "./branch-open.js";

export const joinFailed = ingestRule("join-failed", "ledger", "/hop/branch");

/** As `joinExpiredReason`: `ended` are the quoted ids of the branches that ended. */
export function joinFailedReason(pointer: string, task: string, join: string, ended: readonly string[], terminal: string | null): Reason {
  const words = { task, join, ended: ended.length === 0 ? "no branch" : branchList(ended), terminal: terminal ?? "" };
  return ruleReason(pointer, joinFailed.id, terminal === null ? "escalate" : "terminal", words);
}
