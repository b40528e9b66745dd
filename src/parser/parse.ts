/**
 * `parse()`: text -> AST plus every syntax diagnostic of the file, in one run (TypeSpec's
 * `parse()` habit: never throws, always returns a tree).
 */
import type { IRecognitionException, IToken } from "chevrotain";
import { createDiagnostic, type Diagnostic } from "../core/diagnostic.js";
import type { Range, SourceFile } from "../core/source-file.js";
import type { SeamFile } from "./ast.js";
import { cstToAst } from "./cst-to-ast.js";
import { decodeString } from "./decode-string.js";
import { lex } from "./lexer.js";
import { parseTokens } from "./parser.js";
import { syntaxRule } from "./syntax-rule.js";
import { ERROR_GROUP, MalformedString } from "./tokens.js";

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
 * found too), integers beyond 2^53 - 1 and language versions other than 1 all become `syntax`
 * diagnostics whose ranges lie inside the file. Never throws on any input.
 */
export function parse(file: SourceFile): ParseResult {
  const { text } = file;
  const found: { range: Range; message: string }[] = [];
  const report = (range: Range, message: string): void => {
    found.push({ range, message });
  };

  const lexed = lex(text);
  for (const error of lexed.errors) {
    const length = Math.max(1, Math.min(error.length, text.length - error.offset));
    report({ start: error.offset, end: error.offset + length }, describeUnexpected(text.slice(error.offset, error.offset + length)));
  }
  for (const comment of lexed.groups[ERROR_GROUP] ?? []) {
    report({ start: comment.startOffset, end: comment.startOffset + 2 }, "unterminated block comment: close it with '*/'");
  }
  for (const token of lexed.tokens) {
    if (token.tokenType !== MalformedString) continue;
    for (const problem of decodeString(token.image).problems) {
      const start = token.startOffset + problem.offset;
      report({ start, end: start + problem.length }, problem.message);
    }
  }

  const { cst, errors } = parseTokens(lexed.tokens);
  const lastToken = lexed.tokens[lexed.tokens.length - 1];
  const endOfInput = lastToken === undefined ? text.length : (lastToken.endOffset as number) + 1;
  for (const error of errors) report(errorRange(error, endOfInput), error.message);

  const ast = cstToAst(cst, text.length, report);
  return { ast, diagnostics: toDiagnostics(file, found) };
}

/** The found token's range, or an empty range just after the last token for `end of file`. */
function errorRange(error: IRecognitionException, endOfInput: number): Range {
  const token: IToken = error.token;
  if (Number.isFinite(token.startOffset) && Number.isFinite(token.endOffset)) {
    return { start: token.startOffset, end: (token.endOffset as number) + 1 };
  }
  return { start: endOfInput, end: endOfInput };
}

/** `unexpected character '#'`; invisible or non-ASCII characters are named by code point. */
function describeUnexpected(chunk: string): string {
  const shown = [...chunk]
    .slice(0, 16)
    .map((c) => (/^[\x21-\x7e]$/.test(c) ? c : `U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`));
  const printable = shown.every((s) => s.length === 1);
  const text = printable ? `'${shown.join("")}'` : shown.join(" ");
  const more = [...chunk].length > 16 ? "..." : "";
  return `unexpected ${[...chunk].length === 1 ? "character" : "characters"} ${text}${more}`;
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
