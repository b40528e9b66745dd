import { isKeyword, K_IDENTIFIER, K_INTEGER } from "./scanner.js";

/**
 * True when a token of kind `first` written directly before one of kind `second`, with nothing
 * between them, is read as one name: digits glued to a name or keyword (`9x`, `1agent`), which
 * the parser takes as a misspelt name with its own message. Written apart (`9 x`) they are two
 * tokens. This is the one place the parser reads whether two tokens touch; the language
 * server's reuse of a check across an edit (`program/token-edit.ts`) asks the same question, so
 * whitespace typed between any other two tokens carries the check.
 */
export function gluesIntoName(first: number, second: number): boolean {
  return first === K_INTEGER && (second === K_IDENTIFIER || isKeyword(second));
}
