/**
 * Suppression comments, as ESLint has them (`eslint-disable-next-line`, `eslint-disable`), for
 * every front end that checks a file (`seam check`, the language server):
 *
 *     // seam-disable-next-line unbounded-cycle, hop-limit-unbounded -- reviewed: the loop ends by budget
 *     // seam-disable unreachable-agent -- kept for the next release
 *
 * `seam-disable-next-line` silences the named rules on the line after the comment (where a
 * finding's range starts); `seam-disable` silences them in the whole file. Block comments work
 * too. Every directive should say why after `--`. Reported (never suppressible): a missing
 * reason (`suppression-reason`), a rule id that does not exist or cannot be suppressed
 * (`suppression-unknown-rule`; `syntax` and `internal-error` cannot), and a named rule that
 * suppressed nothing (`unused-suppression`; not reported in a file with syntax errors, whose
 * checks did not all run).
 */
import { createDiagnostic, type Diagnostic } from "../core/diagnostic.js";
import { getLineAndColumn, type Range, type SourceFile } from "../core/source-file.js";
import type { Comment } from "../parser/ast.js";
import { commentBody, DIRECTIVE } from "../parser/directives.js";
import { suppressionReasonRule, suppressionUnknownRule, unusedSuppressionRule } from "./rules/suppression-rules.js";

/** One suppression comment, read. */
export interface Suppression {
  readonly scope: "next-line" | "file";
  /** The named rules with the range of each id in the file. */
  readonly rules: readonly { readonly id: string; readonly range: Range }[];
  /** The text after `--`, trimmed; undefined when there is none. */
  readonly reason?: string;
  readonly comment: Comment;
}

/** Rules a comment may not silence: a syntax error or a crash must be fixed. */
const UNSUPPRESSIBLE: ReadonlySet<string> = new Set(["syntax", "internal-error", "file-too-large"]);

/**
 * Reads the suppression directives among `comments` (`//` or block comments whose text starts
 * with a directive word; other comments are ignored).
 */
export function readSuppressions(comments: readonly Comment[]): Suppression[] {
  const found: Suppression[] = [];
  for (const comment of comments) {
    const { body, start: bodyStart } = commentBody(comment);
    const match = DIRECTIVE.exec(body);
    if (match === null) continue;
    const listStart = (match[1] as string).length + (match[2] as string).length;
    const separator = body.indexOf("--", listStart);
    const list = separator < 0 ? body.slice(listStart) : body.slice(listStart, separator);
    const reason = separator < 0 ? "" : body.slice(separator + 2).trim();
    const rules: { id: string; range: Range }[] = [];
    for (const id of list.matchAll(/[^\s,]+/g)) {
      const start = bodyStart + listStart + (id.index as number);
      rules.push({ id: id[0], range: { start, end: start + id[0].length } });
    }
    const scope = match[2] === "seam-disable" ? "file" : "next-line";
    found.push(reason === "" ? { scope, rules, comment } : { scope, rules, reason, comment });
  }
  return found;
}

/**
 * Applies the suppression comments of `file` to `diagnostics`: returns the diagnostics not
 * suppressed plus the findings about the comments themselves. `knownRules` are the ids that may
 * be named. `hasSyntaxErrors` turns off `unused-suppression` (some checks did not run).
 */
export function applySuppressions(
  file: SourceFile,
  comments: readonly Comment[],
  diagnostics: readonly Diagnostic[],
  knownRules: ReadonlySet<string>,
  hasSyntaxErrors: boolean,
): Diagnostic[] {
  const suppressions = readSuppressions(comments);
  if (suppressions.length === 0) return [...diagnostics];
  const findings: Diagnostic[] = [];
  const report = (rule: typeof suppressionReasonRule, range: Range, message: string): void => {
    findings.push(createDiagnostic(rule, { file, range, message }));
  };
  // Per rule id: the lines its next-line directives cover and whether it is off for the file.
  const usable: { id: string; range: Range; scope: Suppression["scope"]; line: number; used: boolean }[] = [];
  for (const suppression of suppressions) {
    const word = suppression.scope === "file" ? "seam-disable" : "seam-disable-next-line";
    if (suppression.reason === undefined) {
      report(suppressionReasonRule, suppression.comment.range, `${word} gives no reason: add '-- <why this finding is accepted>' after the rule ids.`);
    }
    if (suppression.rules.length === 0) {
      report(suppressionUnknownRule, suppression.comment.range, `${word} names no rule: write the rule id(s) to suppress, e.g. '${word} unreachable-agent -- <reason>'.`);
    }
    const line = getLineAndColumn(file, suppression.comment.range.end).line + 1;
    for (const { id, range } of suppression.rules) {
      if (UNSUPPRESSIBLE.has(id)) {
        report(suppressionUnknownRule, range, `'${id}' cannot be suppressed: fix the problem it reports instead.`);
      } else if (!knownRules.has(id)) {
        report(suppressionUnknownRule, range, `unknown rule '${id}' in ${word}: check the rule id (see 'seam check --help' or docs/rules/).`);
      } else {
        usable.push({ id, range, scope: suppression.scope, line, used: false });
      }
    }
  }
  const kept = diagnostics.filter((d) => {
    let suppressed = false;
    let line: number | undefined;
    for (const entry of usable) {
      if (entry.id !== d.rule) continue;
      if (entry.scope === "next-line") {
        line ??= getLineAndColumn(file, d.range.start).line;
        if (entry.line !== line) continue;
      }
      entry.used = true;
      suppressed = true;
    }
    return !suppressed;
  });
  if (!hasSyntaxErrors) {
    for (const entry of usable) {
      if (entry.used) continue;
      const where = entry.scope === "file" ? "in this file" : "on the next line";
      report(unusedSuppressionRule, entry.range, `'${entry.id}' is suppressed but reports nothing ${where}: remove it from the comment.`);
    }
  }
  return [...kept, ...findings];
}
