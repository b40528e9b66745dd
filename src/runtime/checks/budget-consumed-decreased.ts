/**
 * Spend never goes backwards: a `budget.consumed` counter is at least what the task's last
 * accepted hop reported. Found by the store (a `custody` fault `budget-consumed`), worded here.
 */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const budgetConsumedDecreased = ingestRule("budget-consumed-decreased", "ledger", "/budget/consumed/<counter>");

/** `spent` `null`: the counter is not reported. */
export function budgetConsumedReason(counter: string, spent: number | null, before: number, hop: number): Reason {
  const path = `/budget/consumed/${counter}`;
  return spent === null
    ? ruleReason(path, budgetConsumedDecreased.id, "hidden", { counter, before, hop })
    : ruleReason(path, budgetConsumedDecreased.id, "decreased", { counter, spent, before, hop });
}
