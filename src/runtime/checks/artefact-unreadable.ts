/** The receiver can read every required artefact (`canRead`). */
import { quoteUntrusted } from "../../core/untrusted-text.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const artefactUnreadable = ingestRule("artefact-unreadable", "artefacts", "/artefacts/<i>/ref");

export function artefactReason(me: string, index: number, ref: string): Reason {
  return ruleReason(`/artefacts/${index}/ref`, artefactUnreadable.id, "unreadable", { me, ref: quoteUntrusted(ref) });
}
