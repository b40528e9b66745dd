/** Reading the envelope does not throw (a getter, a proxy trap): plain JSON data never does. */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const unreadableEnvelope = ingestRule("unreadable-envelope", "schema", "");

export function unreadableReason(error: unknown): Reason {
  const why = error instanceof Error ? error.message : String(error);
  return ruleReason(unreadableEnvelope.pointer, unreadableEnvelope.id, "threw", { why: quoteUntrusted(why) });
}
