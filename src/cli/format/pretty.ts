/**
 * The human format of `seam check` (tsc/rustc style): a header line per diagnostic, the source
 * line with the flagged range underlined (clipped to 120 columns around the range,
 * control characters made visible: see `code-frame.ts`), related locations, and a
 * closing count.
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
import { isFinding, type Diagnostic, type Severity } from "../../core/diagnostic.js";
import { getShownLineAndColumn, getShownLineText, type Range, type SourceFile } from "../../core/source-file.js";
import { frameLine, layoutLine, type LineLayout } from "./code-frame.js";
import { printablePath } from "./display-path.js";
import { escapeUntrusted } from "../../core/untrusted-text.js";

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
  const layoutOf = createLineLayouts();
  const out: string[] = [];
  for (const d of diagnostics) {
    const shown = (printed.get(d.file) ?? 0) + 1;
    printed.set(d.file, shown);
    if (shown > maxPerFile) continue;
    const paint = severityColor[d.severity];
    const at = getShownLineAndColumn(d.file, d.range.start);
    out.push(
      `${c.cyan(printablePath(d.file.path, options.cwd))}:${c.yellow(String(at.line))}:${c.yellow(String(at.column))}` +
        ` - ${paint(d.severity)} ${c.dim(d.rule)}: ${escapeUntrusted(d.message)}`,
      "",
    );
    const [sourceLine, underline] = snippet(d.file, d.range, layoutOf, (text) => paint(text), c.dim);
    out.push(sourceLine, underline);
    for (const r of d.related ?? []) {
      const rAt = getShownLineAndColumn(r.file, r.range.start);
      out.push(`  ${c.blue("note")}: ${printablePath(r.file.path, options.cwd)}:${rAt.line}:${rAt.column} - ${escapeUntrusted(r.message)}`);
    }
    out.push("");
    const total = totals.get(d.file) ?? 0;
    if (shown === maxPerFile && total > maxPerFile) {
      out.push(`... and ${total - maxPerFile} more in ${printablePath(d.file.path, options.cwd)} (use seam check --format json to see all)`, "");
    }
  }
  out.push(summary(diagnostics, options.fileCount));
  return out.join("\n") + "\n";
}

/** Keeps the layout of the last line framed: diagnostics come sorted, so many share a line. */
function createLineLayouts(): (file: SourceFile, line: number) => LineLayout {
  let last: { file: SourceFile; line: number; layout: LineLayout } | undefined;
  return (file, line) => {
    if (last?.file !== file || last.line !== line) last = { file, line, layout: layoutLine(getShownLineText(file, line)) };
    return last.layout;
  };
}

/**
 * The source line holding `range.start` (clipped around the range, see {@link frameLine}) and an
 * underline of the range, itself clipped to that line.
 */
function snippet(
  file: SourceFile,
  range: Range,
  layoutOf: (file: SourceFile, line: number) => LineLayout,
  paintCaret: (s: string) => string,
  paintGutter: (s: string) => string,
): [sourceLine: string, underline: string] {
  const start = getShownLineAndColumn(file, range.start);
  const end = getShownLineAndColumn(file, range.end);
  const layout = layoutOf(file, start.line);
  const from = start.column - 1;
  const to = end.line === start.line ? Math.min(end.column - 1, layout.text.length) : layout.text.length;
  const shown = frameLine(layout, from, Math.max(from, to));
  const number = String(start.line);
  const gutter = " ".repeat(Math.max(4, number.length));
  return [
    `${paintGutter(`${number.padStart(gutter.length)} |`)} ${shown.text}`,
    `${paintGutter(`${gutter} |`)} ${" ".repeat(shown.caretColumn)}${paintCaret("^" + "~".repeat(shown.caretWidth - 1))}`,
  ];
}

function summary(diagnostics: readonly Diagnostic[], fileCount: number): string {
  const count = (severity: Severity): number => diagnostics.filter((d) => d.severity === severity && isFinding(d)).length;
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
