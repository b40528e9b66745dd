/**
 * The scanner's output in the shape of Chevrotain's `Lexer.tokenize` result, so the token tests
 * can compare the scanner with a Chevrotain `Lexer` built from the same token types.
 */
import type { ILexingError, ILexingResult, IToken } from "chevrotain";
import { describeUnexpectedAt } from "../../src/parser/describe-unexpected.js";
import { toChevrotainTokens } from "../../src/parser/spec/chevrotain-tokens.js";
import { scan } from "../../src/parser/scanner.js";
import { ERROR_GROUP, UnterminatedComment } from "../../src/parser/spec/tokens.js";

/**
 * Lexes `text` into the shape of Chevrotain's `Lexer.tokenize` result: `tokens`, `errors`
 * (runs of unexpected characters; no line or column) and `groups.errors` (an unterminated block
 * comment, as one token). A byte order mark at offset 0 is skipped. Never throws.
 */
export function lex(text: string): ILexingResult {
  const scanned = scan(text);
  const errors: ILexingError[] = scanned.unexpected.map(([offset, length]) => ({
    offset,
    length,
    line: undefined,
    column: undefined,
    message: describeUnexpectedAt(text, offset, length),
  }));
  const comment = scanned.unterminatedComment;
  const commentTokens: IToken[] =
    comment < 0
      ? []
      : [
          {
            image: text.slice(comment),
            startOffset: comment,
            endOffset: text.length - 1,
            tokenTypeIdx: UnterminatedComment.tokenTypeIdx as number,
            tokenType: UnterminatedComment,
          },
        ];
  return { tokens: toChevrotainTokens(text, scanned), errors, groups: { [ERROR_GROUP]: commentTokens } };
}
