/**
 * A join takes each branch once and continues once: a handoff in a branch after its join fired
 * without it (`any`, k of n), or in a branch that reached the join already, is refused and
 * discarded (the task went on), and so is one in a branch that ended at a terminal of its own.
 * The store finds it (`branch` outcomes `late`, `arrived`, `ended`).
 */
import { ruleReason, type Reason } from "../reason.js";
import { branchList } from "./branch-open.js";
import { ingestRule } from "./ingest-rule.js";

export const branchLate = ingestRule("branch-late", "ledger", "/hop/branch");

/** The join fired at hop `hop` on the branches `arrived`; `task` is quoted, the rest from the graph. */
export function branchFiredReason(branch: string, task: string, join: string, hop: number, arrived: readonly string[]): Reason {
  return ruleReason(branchLate.pointer, branchLate.id, "fired", { branch, task, join, hop, arrived: branchList(arrived) });
}

/** The branch reached the join at hop `hop`. */
export function branchArrivedReason(branch: string, task: string, join: string, hop: number): Reason {
  return ruleReason(branchLate.pointer, branchLate.id, "arrived", { branch, task, join, hop });
}

/** The branch ended at a terminal of its own at hop `hop` (its last hop). */
export function branchEndedReason(branch: string, task: string, hop: number): Reason {
  return ruleReason(branchLate.pointer, branchLate.id, "ended", { branch, task, hop });
}
