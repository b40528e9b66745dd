/** No other agent accepted this task's hop (one owner at a time). */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const ownerConflict = ingestRule("owner-conflict", "ledger", "/to_agent/id");

export function ownerConflictReason(owner: string, hopIndex: number | undefined, taskId: string | undefined): Reason {
  return ruleReason(ownerConflict.pointer, ownerConflict.id, "owner", { owner: quoteUntrusted(owner), hop: String(hopIndex), task: quoteUntrusted(taskId) });
}
