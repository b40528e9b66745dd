/** A counter with a `budget.limit` is reported in `budget.consumed`: an omitted one is never compared. */
import { ruleReason, type Reason } from "../reason.js";
import { wholeCount, type BudgetCounter } from "./budget-exhausted.js";
import { ingestRule } from "./ingest-rule.js";

export const budgetCounterMissing = ingestRule("budget-counter-missing", "envelope", "/budget/consumed/<counter>");

export function checkCounterReported(counter: BudgetCounter, consumed: unknown, cap: unknown, reasons: Reason[]): void {
  const most = wholeCount(cap);
  if (most !== undefined && consumed === undefined) {
    reasons.push(ruleReason(`/budget/consumed/${counter}`, budgetCounterMissing.id, "missing", { counter, limit: most }));
  }
}
