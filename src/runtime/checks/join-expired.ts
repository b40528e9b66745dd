/**
 * A join waits `within N seconds` of its fan-out: once that deadline passed before its condition
 * was met, the store acts on the join's `otherwise` policy, once, and refuses the task's handoffs
 * that the join would have taken (the store's `join` outcome, state `expired`).
 */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";
import { branchList } from "./branch-open.js";

export const joinExpired = ingestRule("join-expired", "ledger", "/hop/branch");

/**
 * `task`, `join` and `terminal` are quoted already, `deadline` an ISO 8601 time, `missing` quoted
 * branch ids; `terminal` `null` for `otherwise escalate`. `pointer`: `/hop/branch` for a handoff
 * in a branch, `/hop` for another.
 */
export function joinExpiredReason(pointer: string, task: string, join: string, deadline: string, missing: readonly string[], terminal: string | null): Reason {
  const words = { task, join, deadline, missing: missing.length === 0 ? "no branch" : branchList(missing), terminal: terminal ?? "" };
  return ruleReason(pointer, joinExpired.id, terminal === null ? "escalate" : "terminal", words);
}
