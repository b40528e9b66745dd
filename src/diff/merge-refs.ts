/**
 * Several `--against` refs (the schema registry's transitive modes: every version that may still
 * have tasks in flight): the findings of each comparison, merged. A finding reported against
 * several refs is kept once, with every ref it holds against.
 */
import type { Finding } from "./finding.js";
import { sortDiagnostics } from "../core/diagnostic.js";

/** A finding of a multi-ref run, with the refs (as given) it was found against. */
export interface RefFinding extends Finding {
  readonly against: readonly string[];
}

/**
 * Merges the findings of each ref's comparison; identical findings (same id, file, range,
 * message, severity) become one that lists each ref in the order given.
 */
export function mergeRefs(runs: readonly { readonly ref: string; readonly findings: readonly Finding[] }[]): RefFinding[] {
  const merged = new Map<string, { finding: Finding; against: string[] }>();
  for (const { ref, findings } of runs) {
    for (const finding of findings) {
      const key = [finding.rule, finding.file.path, finding.range.start, finding.range.end, finding.severity, finding.message].join("\0");
      const seen = merged.get(key);
      if (seen === undefined) merged.set(key, { finding, against: [ref] });
      else if (!seen.against.includes(ref)) seen.against.push(ref);
    }
  }
  return sortDiagnostics([...merged.values()].map(({ finding, against }) => ({ ...finding, against }))) as RefFinding[];
}
