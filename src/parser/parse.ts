/**
 * `parse()`: text -> AST plus every syntax diagnostic of the file, in one run (TypeSpec's
 * `parse()` habit: never throws, always returns a tree).
 */
import { createDiagnostic, type Diagnostic } from "../core/diagnostic.js";
import type { Range, SourceFile } from "../core/source-file.js";
import type { SeamFile } from "./ast.js";
import { decodeString } from "./decode-string.js";
import { describeUnexpectedAt } from "./describe-unexpected.js";
import { looksLikeUtf16 } from "./looks-like-utf16.js";
import { parseTokens } from "./parser.js";
import { scan, type ScanResult } from "./scanner.js";
import { MAX_SYNTAX_DIAGNOSTICS, syntaxRule } from "./syntax-rule.js";

/** What {@link parse} returns. */
export interface ParseResult {
  /** The tree, with incomplete declarations kept as such (see `ast.ts`) and every comment. */
  readonly ast: SeamFile;
  /**
   * The `syntax` diagnostics, in source order: every one, up to {@link MAX_SYNTAX_DIAGNOSTICS}.
   * Empty when the file is well formed.
   */
  readonly diagnostics: Diagnostic[];
}

/**
 * Parses a `.seam` file (docs/language.md). Lexical errors (unexpected characters, bad
 * strings, unterminated comments), parse errors (with recovery, so later errors are
 * found too), negative integers, integers beyond 2^53 - 1 and language versions other than 1 all become `syntax`
 * diagnostics whose ranges lie inside the file. Text that looks like UTF-16 gets one diagnostic
 * saying so, at 1:1, and an empty tree. Never throws on any input.
 *
 * @param scanned - the scan of `file.text` when the caller has one (a language server's rescan
 *   around a keystroke, equal to `scan(file.text)`), so that the text is not scanned again
 */
export function parse(file: SourceFile, scanned?: ScanResult): ParseResult {
  const { text } = file;
  if (looksLikeUtf16(text)) {
    return {
      ast: { kind: "File", graphs: [], comments: [], range: { start: 0, end: text.length } },
      diagnostics: toDiagnostics(file, [
        { range: { start: 0, end: 0 }, message: "the file looks like UTF-16 text; save it as UTF-8" },
      ]),
    };
  }
  const found: { range: Range; message: string }[] = [];
  const report = (range: Range, message: string): void => {
    found.push({ range, message });
  };

  // Each kind of error below comes in source order, so only the first MAX + 1 of a kind can be
  // among the diagnostics shown (or be where the list stops): a garbage file is not described
  // in full only to be cut.
  const shown = MAX_SYNTAX_DIAGNOSTICS + 1;
  scanned ??= scan(text);
  for (const [offset, length] of scanned.unexpected.slice(0, shown)) {
    report({ start: offset, end: offset + length }, describeUnexpectedAt(text, offset, length));
  }
  if (scanned.unterminatedComment >= 0) {
    const start = scanned.unterminatedComment;
    report({ start, end: start + 2 }, "unterminated block comment: close it with '*/'");
  }
  let stringProblems = 0;
  for (const i of scanned.malformedStrings) {
    if (stringProblems >= shown) break;
    const tokenStart = scanned.starts[i] as number;
    for (const problem of decodeString(text.slice(tokenStart, scanned.ends[i])).problems) {
      const start = tokenStart + problem.offset;
      report({ start, end: start + problem.length }, problem.message);
      stringProblems++;
    }
  }

  // One error more than are shown, so that the list says where it stopped.
  const { ast, errors } = parseTokens(text, scanned, { maxErrors: shown });
  for (const error of errors) found.push(error);
  return { ast, diagnostics: toDiagnostics(file, found) };
}

/**
 * One diagnostic per distinct (range, message), in source order; past
 * {@link MAX_SYNTAX_DIAGNOSTICS}, one that says so, at the first one left out.
 */
function toDiagnostics(file: SourceFile, found: readonly { range: Range; message: string }[]): Diagnostic[] {
  const seen = new Set<string>();
  const unique = found.filter(({ range, message }) => {
    const key = `${range.start}:${range.end}:${message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  unique.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  const firstLeftOut = unique[MAX_SYNTAX_DIAGNOSTICS];
  const kept = unique.slice(0, MAX_SYNTAX_DIAGNOSTICS);
  const out = kept.map(({ range, message }) => createDiagnostic(syntaxRule, { file, range, message }));
  if (firstLeftOut !== undefined) {
    const message = `too many syntax errors; stopped after ${MAX_SYNTAX_DIAGNOSTICS}`;
    out.push(createDiagnostic(syntaxRule, { file, range: firstLeftOut.range, message, omitted: unique.length - MAX_SYNTAX_DIAGNOSTICS }));
  }
  return out;
}
