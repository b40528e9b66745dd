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
}

/** Options of {@link createDiagnostic}. */
export interface DiagnosticInit {
  readonly file: SourceFile;
  readonly range: Range;
  readonly message: string;
  /** Overrides the rule's default severity (for rules with two levels, e.g. `hop-limit-too-low`). */
  readonly severity?: Severity;
  readonly related?: readonly RelatedInformation[];
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
    message: init.message,
    file,
    range,
    ...(init.related && init.related.length > 0 ? { related: init.related } : {}),
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
