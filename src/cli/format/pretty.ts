/**
 * The human format of `seam check` (tsc/rustc style): a header line per diagnostic, the source
 * line with the flagged range underlined, related locations, and a closing count.
 *
 * ```
 * graphs/desk.seam:9:27 - error unknown-agent: ...
 *
 *    9 |   transfer researcher -> researcher_tool
 *      |                          ^~~~~~~~~~~~~~~
 *   note: graphs/desk.seam:5:9 - 'researcher_tools' is declared here
 *
 * 1 error in 1 file
 * ```
 */
import picocolors from "picocolors";
import type { Diagnostic, Severity } from "../../core/diagnostic.js";
import { getLineAndColumn, getLineText, type Range, type SourceFile } from "../../core/source-file.js";
import { displayPath } from "./display-path.js";

/** Options of {@link formatPretty}. */
export interface PrettyOptions {
  /** Folder that printed paths are relative to. */
  readonly cwd: string;
  /** Emit ANSI colour (decided by the CLI from the terminal and `NO_COLOR`/`FORCE_COLOR`). */
  readonly color: boolean;
  /** How many files were checked, for the summary line. */
  readonly fileCount: number;
  /** Most diagnostics printed per file (default {@link PRETTY_MAX_PER_FILE}); the summary still counts all. */
  readonly maxPerFile?: number;
}

/**
 * Most diagnostics the pretty format prints for one file. A file that yields 100,000 errors
 * (generated or corrupt) would otherwise fill a terminal with megabytes nobody reads; past
 * this, one line says how many more there are, and the machine formats still list them all.
 */
export const PRETTY_MAX_PER_FILE = 1000;

/** Columns a tab advances to (rustc prints tabs as four spaces). */
const TAB_WIDTH = 4;

/**
 * Formats diagnostics, in the order given, followed by a summary line such as
 * `2 errors, 1 warning in 3 files` (or `no problems in 3 files`). Returns text ending in a newline.
 * At most `maxPerFile` diagnostics are printed per file; right after the last one printed, a
 * line `... and N more in <file> (use seam check --format json to see all)` stands for the rest.
 * The summary counts every diagnostic.
 */
export function formatPretty(diagnostics: readonly Diagnostic[], options: PrettyOptions): string {
  const c = picocolors.createColors(options.color);
  const severityColor: Record<Severity, (text: string) => string> = { error: c.red, warning: c.yellow, info: c.blue };
  const maxPerFile = options.maxPerFile ?? PRETTY_MAX_PER_FILE;
  const totals = new Map<SourceFile, number>();
  for (const d of diagnostics) totals.set(d.file, (totals.get(d.file) ?? 0) + 1);
  const printed = new Map<SourceFile, number>();
  const out: string[] = [];
  for (const d of diagnostics) {
    const shown = (printed.get(d.file) ?? 0) + 1;
    printed.set(d.file, shown);
    if (shown > maxPerFile) continue;
    const paint = severityColor[d.severity];
    const at = getLineAndColumn(d.file, d.range.start);
    out.push(
      `${c.cyan(displayPath(d.file.path, options.cwd))}:${c.yellow(String(at.line))}:${c.yellow(String(at.column))}` +
        ` - ${paint(d.severity)} ${c.dim(d.rule)}: ${d.message}`,
      "",
    );
    const [sourceLine, underline] = snippet(d.file, d.range, (text) => paint(text), c.dim);
    out.push(sourceLine, underline);
    for (const r of d.related ?? []) {
      const rAt = getLineAndColumn(r.file, r.range.start);
      out.push(`  ${c.blue("note")}: ${displayPath(r.file.path, options.cwd)}:${rAt.line}:${rAt.column} - ${r.message}`);
    }
    out.push("");
    const total = totals.get(d.file) ?? 0;
    if (shown === maxPerFile && total > maxPerFile) {
      out.push(`... and ${total - maxPerFile} more in ${displayPath(d.file.path, options.cwd)} (use seam check --format json to see all)`, "");
    }
  }
  out.push(summary(diagnostics, options.fileCount));
  return out.join("\n") + "\n";
}

/** The source line holding `range.start` and an underline of the range, clipped to that line. */
function snippet(
  file: SourceFile,
  range: Range,
  paintCaret: (s: string) => string,
  paintGutter: (s: string) => string,
): [sourceLine: string, underline: string] {
  const start = getLineAndColumn(file, range.start);
  const end = getLineAndColumn(file, range.end);
  const text = getLineText(file, start.line);
  const from = start.column - 1;
  const to = end.line === start.line ? Math.min(end.column - 1, text.length) : text.length;
  const shown = expandLine(text, from, Math.max(from, to));
  const width = Math.max(1, shown.endColumn - shown.startColumn);
  const number = String(start.line);
  const gutter = " ".repeat(Math.max(4, number.length));
  return [
    `${paintGutter(`${number.padStart(gutter.length)} |`)} ${shown.text}`,
    `${paintGutter(`${gutter} |`)} ${" ".repeat(shown.startColumn)}${paintCaret("^" + "~".repeat(width - 1))}`,
  ];
}

/**
 * Expands tabs to tab stops and counts a surrogate pair as one column, returning the shown
 * text and the display columns (0-based) of the UTF-16 offsets `from` and `to` within the line.
 */
function expandLine(text: string, from: number, to: number): { text: string; startColumn: number; endColumn: number } {
  let shown = "";
  let column = 0;
  let startColumn = 0;
  let endColumn = 0;
  for (let i = 0; i <= text.length; ) {
    if (i === from) startColumn = column;
    if (i === to) endColumn = column;
    if (i === text.length) break;
    const code = text.charCodeAt(i);
    if (code === 9 /* \t */) {
      const next = (Math.floor(column / TAB_WIDTH) + 1) * TAB_WIDTH;
      shown += " ".repeat(next - column);
      column = next;
      i++;
    } else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      shown += text.slice(i, i + 2);
      column++;
      // An offset inside a pair (never produced by the lexer) is taken as the pair's start.
      if (i + 1 === from) startColumn = column - 1;
      if (i + 1 === to) endColumn = column;
      i += 2;
    } else {
      shown += text[i];
      column++;
      i++;
    }
  }
  return { text: shown, startColumn, endColumn };
}

function summary(diagnostics: readonly Diagnostic[], fileCount: number): string {
  const count = (severity: Severity): number => diagnostics.filter((d) => d.severity === severity).length;
  const parts = [
    plural(count("error"), "error", "errors"),
    plural(count("warning"), "warning", "warnings"),
    plural(count("info"), "info", "info"),
  ].filter((part) => part !== "");
  const files = `${fileCount} ${fileCount === 1 ? "file" : "files"}`;
  return parts.length === 0 ? `no problems in ${files}` : `${parts.join(", ")} in ${files}`;
}

function plural(n: number, one: string, many: string): string {
  return n === 0 ? "" : `${n} ${n === 1 ? one : many}`;
}
