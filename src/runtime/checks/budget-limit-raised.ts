/**
 * Budgets hold across hops: the ledger keeps the budget of the task's last accepted hop, and a
 * later hop may not raise (or drop) a `budget.limit` counter. Found by the store (a `custody`
 * fault `budget-limit`), worded here.
 */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const budgetLimitRaised = ingestRule("budget-limit-raised", "ledger", "/budget/limit/<counter>");

/** `limit` `null`: the envelope states no limit for the counter. */
export function budgetLimitReason(counter: string, limit: number | null, before: number, hop: number): Reason {
  const path = `/budget/limit/${counter}`;
  return limit === null
    ? ruleReason(path, budgetLimitRaised.id, "dropped", { counter, before, hop })
    : ruleReason(path, budgetLimitRaised.id, "raised", { counter, limit, before, hop });
}
