/**
 * Seam text as Chevrotain tokens, for the recovering Chevrotain parser (files with syntax
 * errors) and for tests. The tokens come from {@link scan} (see there why Chevrotain's own
 * `Lexer` is not used); this module only gives them the token types of `tokens.ts`.
 */
import type { ILexingError, ILexingResult, IToken, TokenType } from "chevrotain";
import { describeUnexpected } from "./describe-unexpected.js";
import { kindNames, scan, type ScanResult } from "./scanner.js";
import { allTokens, ERROR_GROUP, UnterminatedComment } from "./tokens.js";

/** Token types by scanner kind, matched by name (a missing name is a bug in Seam, caught by the tests). */
const typeOfKind: readonly TokenType[] = kindNames.map((name) => {
  const type = allTokens.find((t) => t.name === name);
  if (type === undefined) throw new Error(`tokens.ts defines no token type named ${name}`);
  return type;
});

/**
 * Converts scanned tokens into Chevrotain `IToken`s with offsets only (`endOffset` inclusive, as
 * Chevrotain has it); the parser uses no lines or columns.
 */
export function toChevrotainTokens(text: string, scanned: ScanResult): IToken[] {
  const tokens: IToken[] = new Array<IToken>(scanned.count);
  for (let i = 0; i < scanned.count; i++) {
    const tokenType = typeOfKind[scanned.kinds[i] as number] as TokenType;
    const startOffset = scanned.starts[i] as number;
    const end = scanned.ends[i] as number;
    tokens[i] = {
      image: text.slice(startOffset, end),
      startOffset,
      endOffset: end - 1,
      tokenTypeIdx: tokenType.tokenTypeIdx as number,
      tokenType,
    };
  }
  return tokens;
}

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
    message: describeUnexpected(text.slice(offset, offset + length)),
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
