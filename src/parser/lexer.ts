/**
 * Turns Seam text into tokens. The Chevrotain lexer is built once, on first use, so importing
 * the parser costs nothing until a file is actually read.
 */
import type { ILexingResult, Lexer } from "chevrotain";
import { chevrotain } from "./chevrotain.js";
import { allTokens } from "./tokens.js";

let lexer: Lexer | undefined;

/** Options of {@link createSeamLexer}. */
export interface SeamLexerOptions {
  /** Run Chevrotain's checks of the token definitions (tests do; production skips them). */
  readonly validate?: boolean;
}

/**
 * Builds a new lexer over {@link allTokens} with full position tracking (offsets, lines and
 * columns; offsets are UTF-16 code units).
 *
 * @throws Error from Chevrotain when `validate` is on and a token definition is wrong (a bug).
 */
export function createSeamLexer(options: SeamLexerOptions = {}): Lexer {
  return new chevrotain.Lexer([...allTokens], {
    positionTracking: "full",
    skipValidations: options.validate !== true,
    ensureOptimizations: options.validate === true,
  });
}

/**
 * Lexes `text`. A byte order mark at offset 0 is replaced by a space before lexing, so it is
 * skipped while every offset stays that of the original text.
 *
 * @returns Chevrotain's result: `tokens`, `errors` (unmatched characters) and `groups.errors`
 *   (unterminated block comments). Never throws.
 */
export function lex(text: string): ILexingResult {
  lexer ??= createSeamLexer();
  const input = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  return lexer.tokenize(input);
}
