/**
 * The machine format of `seam check --format json` (docs/cli.md): one array of flat
 * records, the shape ESLint's JSON users expect, positions 1-based and the end column exclusive.
 */
import type { Diagnostic, Severity } from "../../core/diagnostic.js";
import { getShownLineAndColumn } from "../../core/source-file.js";
import { stringifyUntrusted } from "../../core/untrusted-text.js";
import { displayPath } from "./display-path.js";

/** One diagnostic as printed by `--format json`. */
export interface JsonDiagnostic {
  /** Path relative to the working folder, `/`-separated. */
  readonly file: string;
  readonly rule: string;
  readonly severity: Severity;
  readonly message: string;
  /** 1-based line of the first flagged character. */
  readonly line: number;
  /** 1-based column (UTF-16 code units) of the first flagged character. */
  readonly column: number;
  /** 1-based line of the end of the range. */
  readonly endLine: number;
  /** 1-based column just past the last flagged character (exclusive, as ESLint). */
  readonly endColumn: number;
  /** The whole witness path (agent ids) when the message shows a walk, possibly shortened. */
  readonly path?: readonly string[];
}

/** Converts diagnostics (order kept) into {@link JsonDiagnostic} records. */
export function toJsonDiagnostics(diagnostics: readonly Diagnostic[], cwd: string): JsonDiagnostic[] {
  return diagnostics.map((d) => {
    const start = getShownLineAndColumn(d.file, d.range.start);
    const end = getShownLineAndColumn(d.file, d.range.end);
    return {
      file: displayPath(d.file.path, cwd),
      rule: d.rule,
      severity: d.severity,
      message: d.message,
      line: start.line,
      column: start.column,
      endLine: end.line,
      endColumn: end.column,
      ...(d.path ? { path: d.path } : {}),
    };
  });
}

/**
 * The `--format json` text: a pretty-printed array (two-space indent) and a final newline. File
 * names and messages (which quote names from the graph) may hold bidirectional or invisible
 * characters that JSON.stringify leaves raw; they are written as `\uXXXX`, which parses back to
 * the same text but cannot reorder what a terminal shows.
 */
export function formatJson(diagnostics: readonly Diagnostic[], cwd: string): string {
  return stringifyUntrusted(toJsonDiagnostics(diagnostics, cwd), 2) + "\n";
}
