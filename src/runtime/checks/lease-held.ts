/** A handoff claimed under a live lease, not yet committed, is not processed a second time meanwhile (see `seen-store.ts`, claim leases). */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import type { ClaimResult } from "../seen-store.js";
import { ingestRule } from "./ingest-rule.js";

export const leaseHeld = ingestRule("lease-held", "ledger", "/handoff_id");

type Leased = Extract<ClaimResult, { outcome: "leased" }>;

/**
 * The reason of a `leased` claim: who holds the handoff, since when and until when.
 *
 * @param handoffId - the delivery's `handoff_id`
 * @param claimed - the store's answer
 * @param isoTime - formats a time in ms since the Unix epoch as ISO 8601 (UTC)
 */
export function leaseHeldReason(handoffId: string | undefined, claimed: Leased, isoTime: (ms: number) => string): Reason {
  return ruleReason(leaseHeld.pointer, leaseHeld.id, "held", {
    handoff: quoteUntrusted(handoffId),
    receiver: quoteUntrusted(claimed.holder.receiver),
    at: isoTime(claimed.holder.at),
    until: isoTime(claimed.until),
  });
}
