/**
 * Diagnostics are data: `{ rule, severity, message, range, related? }`, created in one place
 * ({@link createDiagnostic}) from a rule's metadata, so every id and default severity comes from
 * a {@link RuleMeta} that the catalogue lists (ESLint's `meta`, TypeSpec's diagnostic table).
 */
import type { Range, SourceFile } from "./source-file.js";

/** How serious a finding is; `error` makes `seam check` exit 1. */
export type Severity = "error" | "warning" | "info";

/** The fixed description of one rule: its kebab-case id, default severity and one line of help. */
export interface RuleMeta {
  /** Stable kebab-case id, e.g. `no-terminal-path` (docs/rules/<id>.md). */
  readonly id: string;
  readonly severity: Severity;
  /** One sentence saying what the rule finds; shown in SARIF and `--help` listings. */
  readonly description: string;
}

/** A secondary location that explains a diagnostic (the first declaration of a duplicate, say). */
export interface RelatedInformation {
  readonly message: string;
  readonly file: SourceFile;
  readonly range: Range;
}

/** One finding in one file. */
export interface Diagnostic {
  readonly rule: string;
  readonly severity: Severity;
  /** Names the agents involved and what to do. */
  readonly message: string;
  readonly file: SourceFile;
  readonly range: Range;
  readonly related?: readonly RelatedInformation[];
  /**
   * The whole witness path (agent ids, in walk order) when the message shows one; the message
   * may shorten it in the middle, machine-readable output keeps it all.
   */
  readonly path?: readonly string[];
  /**
   * Set on a notice that more findings were left out (the parser stops after 200 syntax
   * errors): how many. A notice is not a finding, so summaries do not count it.
   */
  readonly omitted?: number;
}

/** False for a notice that findings were left out ({@link Diagnostic.omitted}); summaries count only findings. */
export function isFinding(diagnostic: Diagnostic): boolean {
  return diagnostic.omitted === undefined;
}

/** Options of {@link createDiagnostic}. */
export interface DiagnosticInit {
  readonly file: SourceFile;
  readonly range: Range;
  readonly message: string;
  /** Overrides the rule's default severity (for rules with two levels, e.g. `hop-limit-too-low`). */
  readonly severity?: Severity;
  readonly related?: readonly RelatedInformation[];
  /** See {@link Diagnostic.path}. */
  readonly path?: readonly string[];
  /** See {@link Diagnostic.omitted}. */
  readonly omitted?: number;
}

/** Longest name (identifier-like run) a message shows whole; longer ones keep their two ends. */
export const MAX_NAME_SHOWN = 64;

/**
 * Shortens every identifier-like run of a message (letters, digits, `_`, `-`) longer than
 * {@link MAX_NAME_SHOWN} characters to its two ends and the count left out, wherever the
 * message shows it (quoted, in a walk, in a suggested line of code), so a 1 MB agent id cannot
 * flood a terminal or a log. No word of Seam's own wording comes near that length.
 */
export function boundLongNames(message: string): string {
  if (message.length <= MAX_NAME_SHOWN) return message;
  return message.replace(LONG_NAME, (name) => boundName(name));
}

const LONG_NAME = new RegExp(`[A-Za-z0-9_-]{${MAX_NAME_SHOWN + 1},}`, "g");

/** A name cut to {@link MAX_NAME_SHOWN} characters around a `…(N more)…` marker when longer. */
export function boundName(name: string): string {
  if (name.length <= MAX_NAME_SHOWN) return name;
  const keep = Math.floor((MAX_NAME_SHOWN - 16) / 2);
  return `${name.slice(0, keep)}…(${name.length - 2 * keep} more)…${name.slice(-keep)}`;
}

/**
 * The one place diagnostics are made.
 *
 * @throws Error when the range lies outside the file: that is a bug in Seam, not bad input.
 */
export function createDiagnostic(rule: RuleMeta, init: DiagnosticInit): Diagnostic {
  const { file, range } = init;
  if (!(range.start >= 0 && range.end >= range.start && range.end <= file.text.length)) {
    throw new Error(`internal: ${rule.id} diagnostic range [${range.start}, ${range.end}) is outside ${file.path}`);
  }
  const diagnostic: Diagnostic = {
    rule: rule.id,
    severity: init.severity ?? rule.severity,
    message: boundLongNames(init.message),
    file,
    range,
    ...(init.related && init.related.length > 0
      ? { related: init.related.map((r) => ({ ...r, message: boundLongNames(r.message) })) }
      : {}),
    ...(init.path ? { path: init.path } : {}),
    ...(init.omitted !== undefined ? { omitted: init.omitted } : {}),
  };
  return diagnostic;
}

/**
 * Sorts diagnostics by file path, then offset, then rule id, so output is deterministic.
 * Returns a new array.
 */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(
    (a, b) =>
      (a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : 0) ||
      a.range.start - b.range.start ||
      a.range.end - b.range.end ||
      (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}
