/**
 * Ids the ledger keeps are bounded: `task_id` (the key of a task's ledger) and the agent ids
 * (the producer and receiver it records) at most {@link MAX_ID_LENGTH} UTF-16 code units. A
 * longer one is refused before the store is asked, so the store never holds attacker-sized ids.
 */
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const idTooLong = ingestRule("id-too-long", "envelope", "/task_id");

/** The longest id the runtime keeps, in UTF-16 code units. */
export const MAX_ID_LENGTH = 256;

/** @returns whether any of the ids is too long */
export function checkIdLengths(taskId: string | undefined, from: string | undefined, to: string | undefined, reasons: Reason[]): boolean {
  let found = false;
  for (const [path, id] of [["/task_id", taskId], ["/from_agent/id", from], ["/to_agent/id", to]] as const) {
    if (id !== undefined && id.length > MAX_ID_LENGTH) {
      reasons.push(ruleReason(path, idTooLong.id, "long", { length: id.length, limit: MAX_ID_LENGTH }));
      found = true;
    }
  }
  return found;
}
