/** Helpers of the `seam diff` tests: check a text, diff two texts, show findings compactly. */
import { readFileSync } from "node:fs";
import { checkText } from "../../src/analysis/check.js";
import type { FileSide } from "../../src/diff/diff.js";
import { diffFiles } from "../../src/diff/diff.js";
import type { Finding } from "../../src/diff/finding.js";
import { applyVersionPolicy } from "../../src/diff/version-policy.js";

/** The graph every row edits. */
export const BASE = readFileSync(new URL("../fixtures/diff/base.seam", import.meta.url), "utf8");

/** Checks `text` and fails the test when it has errors (a row must edit into a valid graph). */
export function side(path: string, text: string): FileSide {
  const result = checkText(path, text);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) throw new Error(`${path} has errors: ${errors.map((d) => `${d.rule}: ${d.message}`).join("; ")}`);
  return { file: result.file, graphs: result.graphs };
}

/** Applies `[from, to]` replacements to the base, each of which must match. */
export function edit(text: string, ...edits: readonly (readonly [string, string])[]): string {
  let out = text;
  for (const [from, to] of edits) {
    if (!out.includes(from)) throw new Error(`edit does not apply: ${from}`);
    out = out.replace(from, to);
  }
  return out;
}

/** A finding as the tables write it: id, severity, the text its range covers, the message. */
export type Row = readonly [rule: string, severity: string, text: string, message: string];

/** The findings from `old` to `next` (with the version policy when asked), as {@link Row}s. */
export function diffRows(old: string, next: string, policy = false): Row[] {
  const a = side("old.seam", old);
  const b = side("new.seam", next);
  const findings = diffFiles(a, b);
  return (policy ? applyVersionPolicy(findings, a, b) : findings).map(toRow);
}

/** A finding as a {@link Row}. */
export function toRow(f: Finding): Row {
  return [f.rule, f.severity, f.file.text.slice(f.range.start, f.range.end), f.message];
}
