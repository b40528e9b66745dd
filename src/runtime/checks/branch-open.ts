/**
 * While a join waits for branches of a fan-out, the task goes on only inside them: a hop outside
 * a branch, or the task's end, is refused, naming the branches the join still waits for. The
 * store finds it (`branch` outcome `open`), this module words it.
 */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const branchOpen = ingestRule("branch-open", "ledger", "/hop");

/** `task` is quoted already; `join` and `missing` (branch ids) come from the graph. */
export function branchOpenReason(task: string, join: string, missing: readonly string[]): Reason {
  return ruleReason(branchOpen.pointer, branchOpen.id, "waiting", { task, join, missing: branchList(missing) });
}

/** Branch ids as words: `branch a/b`, `branches a/b and a/c`, `branches a/b, a/c and a/d`. */
export function branchList(ids: readonly string[]): string {
  if (ids.length === 1) return `branch ${ids[0]}`;
  return `branches ${ids.slice(0, -1).join(", ")} and ${ids[ids.length - 1]}`;
}
