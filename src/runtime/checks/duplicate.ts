/** The handoff (a redelivery) or the task's latest hop (a replay) was not accepted before. */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import type { ClaimResult } from "../seen-store.js";
import { ingestRule } from "./ingest-rule.js";

export const duplicate = ingestRule("duplicate", "ledger", "/handoff_id");

type Duplicate = Extract<ClaimResult, { outcome: "duplicate" }>;

export function duplicateReason(handoffId: string | undefined, taskId: string | undefined, hopIndex: number | undefined, claimed: Duplicate): Reason {
  if (claimed.of === "handoff") return ruleReason("/handoff_id", duplicate.id, "handoff", { handoff: quoteUntrusted(handoffId) });
  return ruleReason("/hop/index", duplicate.id, "hop", {
    hop: String(hopIndex),
    task: quoteUntrusted(taskId),
    receiver: quoteUntrusted(claimed.holder.receiver),
    handoff: quoteUntrusted(claimed.holder.handoffId),
  });
}
