/** `hop.index` is not past the task's next hop (a hop no one accepted). */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const hopSkipped = ingestRule("hop-skipped", "ledger", "/hop/index");

/** `lastHop` and `ledger` word the task's last hop; both `null` for a task with no accepted hop. */
export function hopSkippedReason(hop: number, task: string, lastHop: number | null, ledger: string | null): Reason {
  if (lastHop === null || ledger === null) return ruleReason(hopSkipped.pointer, hopSkipped.id, "first", { hop, task });
  const missing = hop - 1 === lastHop + 1 ? `hop ${lastHop + 1}` : `hops ${lastHop + 1} to ${hop - 1}`;
  return ruleReason(hopSkipped.pointer, hopSkipped.id, "skip", { hop, task, missing, ledger });
}
