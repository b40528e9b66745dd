/**
 * Seam text as Chevrotain tokens, for the grammar specification (`grammar.ts`) that the tests
 * hold the parser to. The tokens come from {@link scan} (see there why Chevrotain's own `Lexer`
 * is not used); this module only gives them the token types of `tokens.ts`.
 */
import type { IToken, TokenType } from "chevrotain";
import { kindNames, type ScanResult } from "../scanner.js";
import { allTokens } from "./tokens.js";

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
    tokens[i] = toChevrotainToken(text, scanned.kinds[i] as number, scanned.starts[i] as number, scanned.ends[i] as number);
  }
  return tokens;
}

/** One scanned token (scanner `kind`, `[start, end)` in `text`) as a Chevrotain `IToken`, as {@link toChevrotainTokens} makes it. */
export function toChevrotainToken(text: string, kind: number, start: number, end: number): IToken {
  const tokenType = typeOfKind[kind] as TokenType;
  return { image: text.slice(start, end), startOffset: start, endOffset: end - 1, tokenTypeIdx: tokenType.tokenTypeIdx as number, tokenType };
}
