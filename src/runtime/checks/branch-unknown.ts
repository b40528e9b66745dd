/**
 * A branch opens once, with its fan-out's delegation, and later handoffs in it need it open: a
 * handoff in a branch the task has not opened, or the delegation of a branch open already, is
 * refused. The store finds it (`branch` outcomes `unopened`, `reopened`).
 */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const branchUnknown = ingestRule("branch-unknown", "ledger", "/hop/branch");

/** `from -> agent` is the branch's delegation (graph words); `task` is quoted. */
export function branchUnopenedReason(branch: string, task: string, from: string, agent: string): Reason {
  return ruleReason(branchUnknown.pointer, branchUnknown.id, "unopened", { branch, task, from, agent });
}

/** The branch was opened at hop `hop`. */
export function branchReopenedReason(branch: string, task: string, hop: number): Reason {
  return ruleReason(branchUnknown.pointer, branchUnknown.id, "reopened", { branch, task, hop });
}
