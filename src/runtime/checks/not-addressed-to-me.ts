/** The envelope is addressed to the receiving agent. */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const notAddressedToMe = ingestRule("not-addressed-to-me", "envelope", "/to_agent/id");

export function checkAddressee(to: string | undefined, me: string, reasons: Reason[]): void {
  if (to !== undefined && to !== me) reasons.push(ruleReason(notAddressedToMe.pointer, notAddressedToMe.id, "other", { to: quoteUntrusted(to), me: quoteUntrusted(me) }));
}
