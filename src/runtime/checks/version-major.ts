/**
 * `envelope_version` is `MAJOR.MINOR.PATCH` in the one version grammar (no leading zeros: the
 * agent versions' and `seam check`'s), and its major is the graph's.
 */
import { envelopeVersionMajor } from "../../core/agent-version.js";
import { quoteUntrusted } from "../../core/untrusted-text.js";
import type { GraphInfo } from "../graph-data.js";
import { ruleReason, type Reason } from "../reason.js";
import { ingestRule } from "./ingest-rule.js";

export const versionMajor = ingestRule("version-major", "envelope", "/envelope_version");

/** Checks one `envelope_version`; producers repeat one version, so the last answer is kept. */
export function createVersionCheck(graph: GraphInfo): (version: unknown, reasons: Reason[]) => void {
  let lastVersion: string | undefined;
  let lastMajor: number | undefined;
  return (version, reasons) => {
    // Not a string: the schema says so.
    if (typeof version !== "string") return;
    if (version !== lastVersion) {
      lastMajor = envelopeVersionMajor(version);
      lastVersion = version;
    }
    if (lastMajor === undefined) {
      // The schema's own pattern names a version of another shape; this is the grammar's stricter part.
      if (/^[0-9]+\.[0-9]+\.[0-9]+$/.test(version)) reasons.push(ruleReason(versionMajor.pointer, versionMajor.id, "malformed", { version: quoteUntrusted(version) }));
      return;
    }
    if (lastMajor !== graph.envelope.major) {
      reasons.push(ruleReason(versionMajor.pointer, versionMajor.id, "unsupported", { major: lastMajor, graph: graph.name, speaks: graph.envelope.major }));
    }
  };
}
