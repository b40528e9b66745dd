/**
 * `parse()`: text -> AST plus every syntax diagnostic of the file, in one run (TypeSpec's
 * `parse()` habit: never throws, always returns a tree).
 */
import { createDiagnostic, type Diagnostic } from "../core/diagnostic.js";
import type { Range, SourceFile } from "../core/source-file.js";
import type { SeamFile } from "./ast.js";
import { decodeString } from "./decode-string.js";
import { describeUnexpected } from "./describe-unexpected.js";
import { parseDirect } from "./direct-parser.js";
import { parseWithRecovery } from "./recovering-parse.js";
import { scan } from "./scanner.js";
import { syntaxRule } from "./syntax-rule.js";

/** What {@link parse} returns. */
export interface ParseResult {
  /** The tree; items that could not be completed are left out. */
  readonly ast: SeamFile;
  /** Every `syntax` diagnostic, in source order. Empty when the file is well formed. */
  readonly diagnostics: Diagnostic[];
}

/**
 * Parses a `.seam` file (DESIGN.md section 1). Lexical errors (unexpected characters, bad
 * strings, unterminated comments), parse errors (with Chevrotain's recovery, so later errors are
 * found too), negative integers, integers beyond 2^53 - 1 and language versions other than 1 all become `syntax`
 * diagnostics whose ranges lie inside the file. Never throws on any input.
 */
export function parse(file: SourceFile): ParseResult {
  const { text } = file;
  const found: { range: Range; message: string }[] = [];
  const report = (range: Range, message: string): void => {
    found.push({ range, message });
  };

  const scanned = scan(text);
  for (const [offset, length] of scanned.unexpected) {
    report({ start: offset, end: offset + length }, describeUnexpected(text.slice(offset, offset + length)));
  }
  if (scanned.unterminatedComment >= 0) {
    const start = scanned.unterminatedComment;
    report({ start, end: start + 2 }, "unterminated block comment: close it with '*/'");
  }
  for (const i of scanned.malformedStrings) {
    const tokenStart = scanned.starts[i] as number;
    for (const problem of decodeString(text.slice(tokenStart, scanned.ends[i])).problems) {
      const start = tokenStart + problem.offset;
      report({ start, end: start + problem.length }, problem.message);
    }
  }

  // Files without syntax errors take the direct path; the others go to the Chevrotain parser,
  // which recovers from errors and words the messages.
  const direct = parseDirect(text, scanned);
  if (direct !== undefined) {
    found.push(...direct.errors);
    return { ast: direct.ast, diagnostics: toDiagnostics(file, found) };
  }
  const ast = parseWithRecovery(text, scanned, report);
  return { ast, diagnostics: toDiagnostics(file, found) };
}

/** One diagnostic per distinct (range, message), in source order. */
function toDiagnostics(file: SourceFile, found: readonly { range: Range; message: string }[]): Diagnostic[] {
  const seen = new Set<string>();
  const unique = found.filter(({ range, message }) => {
    const key = `${range.start}:${range.end}:${message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  unique.sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end);
  return unique.map(({ range, message }) => createDiagnostic(syntaxRule, { file, range, message }));
}
