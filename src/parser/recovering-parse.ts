/**
 * The slow path of `parse()`, for files with syntax errors: the Chevrotain parser with error
 * recovery (so every error of the file is found, not only the first), its worded messages, and
 * the AST of whatever items survived. Kept in its own module so that the CLI bundle can load it,
 * and Chevrotain with it, only when a file needs it (scripts/build-cli.mjs).
 */
import type { IRecognitionException, IToken } from "chevrotain";
import type { Range } from "../core/source-file.js";
import type { SeamFile } from "./ast.js";
import { chevrotain } from "./chevrotain.js";
import { cstToAst } from "./cst-to-ast.js";
import { toChevrotainTokens } from "./lexer.js";
import type { ReportSyntaxError } from "./literals.js";
import { parseTokens } from "./parser.js";
import type { ScanResult } from "./scanner.js";
import { MAX_SYNTAX_DIAGNOSTICS } from "./syntax-rule.js";

/**
 * Parses the scanned tokens of `text` with recovery; reports each parse error and each literal
 * error to `report` and returns the tree of the items that are whole. Where a block comment is
 * never closed, errors that found the end of the file are left out: the comment took the rest of
 * the file, so what they miss is most likely inside it, and the comment's own error says what to
 * fix. Past {@link MAX_SYNTAX_DIAGNOSTICS} parse errors the parse stops and the tree is empty
 * (`parse()` reports the first ones and says it stopped). Never throws.
 */
export function parseWithRecovery(text: string, scanned: ScanResult, report: ReportSyntaxError): SeamFile {
  // One error more than are shown, so that `parse()` knows where it stopped.
  const { cst, errors } = parseTokens(toChevrotainTokens(text, scanned), MAX_SYNTAX_DIAGNOSTICS + 1);
  const endOfInput = scanned.count === 0 ? text.length : (scanned.ends[scanned.count - 1] as number);
  const commentTookTheRest = scanned.unterminatedComment >= 0;
  for (const error of errors) {
    if (commentTookTheRest && error.token.tokenType === chevrotain.EOF) continue;
    report(errorRange(error, endOfInput), error.message);
  }
  if (cst === undefined) return { kind: "File", graphs: [], range: { start: 0, end: text.length } };
  return cstToAst(cst, text.length, report);
}

/** The found token's range, or an empty range just after the last token for `end of file`. */
function errorRange(error: IRecognitionException, endOfInput: number): Range {
  const token: IToken = error.token;
  if (Number.isFinite(token.startOffset) && Number.isFinite(token.endOffset)) {
    return { start: token.startOffset, end: (token.endOffset as number) + 1 };
  }
  return { start: endOfInput, end: endOfInput };
}
