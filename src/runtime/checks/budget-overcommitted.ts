/**
 * A fan-out splits what the parent task has left: the `budget.limit` counters of its branches
 * add up to at most the parent's limit less its spend at the fan-out, and no branch drops a limit
 * the parent has. Found by the store when a branch opens (a `custody` fault
 * `budget-overcommitted`), worded here.
 */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const budgetOvercommitted = ingestRule("budget-overcommitted", "ledger", "/budget/limit/<counter>");

/** The figures of one overcommitted counter, as the store found them. */
export interface Overcommit {
  readonly counter: string;
  /** The branch's limit; `null` when it sets none. */
  readonly limit: number | null;
  /** The parent's limit and spend at the fan-out, at hop `hop`. */
  readonly parent: number;
  readonly spent: number;
  readonly hop: number;
  /** The limits the fan-out's other open branches hold. */
  readonly taken: number;
}

/** `branch` is the branch id, from the graph. */
export function budgetOvercommittedReason(branch: string, found: Overcommit): Reason {
  const path = `/budget/limit/${found.counter}`;
  const params = { counter: found.counter, branch, parent: found.parent, spent: found.spent, hop: found.hop };
  return found.limit === null
    ? ruleReason(path, budgetOvercommitted.id, "unlimited", params)
    : ruleReason(path, budgetOvercommitted.id, "over", { ...params, limit: found.limit, left: Math.max(0, found.parent - found.spent), taken: found.taken });
}
