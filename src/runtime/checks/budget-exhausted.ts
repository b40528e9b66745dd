/** Each `budget.consumed` counter is below its `budget.limit`. */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const budgetExhausted = ingestRule("budget-exhausted", "envelope", "/budget/consumed/<counter>");

/** The budget counters of the envelope, in schema order. */
export const BUDGET_COUNTERS = ["tokens", "wall_clock_ms", "tool_calls", "retries", "cost_micros"] as const;

/** A budget counter's name. */
export type BudgetCounter = (typeof BUDGET_COUNTERS)[number];

export function wholeCount(value: unknown): number | undefined {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

export function checkCounter(counter: BudgetCounter, consumed: unknown, cap: unknown, reasons: Reason[]): void {
  const spent = wholeCount(consumed);
  const most = wholeCount(cap);
  if (spent !== undefined && most !== undefined && spent >= most) {
    reasons.push(ruleReason(`/budget/consumed/${counter}`, budgetExhausted.id, "spent", { counter, spent, limit: most }));
  }
}
