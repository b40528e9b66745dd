/** `hop.index` is not below the task's next hop (a counter reset disables the hop limit). */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const hopReset = ingestRule("hop-reset", "ledger", "/hop/index");

/** `ledger` words the task's last hop; `null` for a task with no accepted hop. */
export function hopResetReason(hop: number, task: string, ledger: string | null): Reason {
  return ledger === null ? ruleReason(hopReset.pointer, hopReset.id, "first", { hop, task }) : ruleReason(hopReset.pointer, hopReset.id, "reset", { hop, task, ledger });
}
