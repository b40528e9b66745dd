/**
 * `from_agent.id` is the sender the transport authenticated (`options.sender`: an mTLS subject,
 * a signed token's subject, a queue's producer id). Without `sender`, `from_agent` is only a
 * claim. A mismatch is refused before the ledger is asked: it counts against no one, and it can
 * neither spend the named producer's repairs nor take a `handoff_id` the real one will use.
 */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const senderMismatch = ingestRule("sender-mismatch", "envelope", "/from_agent/id");

/** @returns whether the envelope's producer is not the authenticated sender */
export function checkSender(from: string | undefined, sender: string | undefined, reasons: Reason[]): boolean {
  if (sender === undefined || from === sender) return false;
  reasons.push(
    ruleReason(senderMismatch.pointer, senderMismatch.id, "claimed", {
      claimed: from === undefined ? "(no from_agent.id)" : quoteUntrusted(from),
      sender: quoteUntrusted(sender),
    }),
  );
  return true;
}
