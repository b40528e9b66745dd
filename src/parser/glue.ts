import { isKeyword, K_IDENTIFIER, K_INTEGER, type ScanResult } from "./scanner.js";

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

/**
 * True when, among tokens `[first, end)` of two scans whose tokens have the same kinds there
 * (a rescan that kept every kind), each pair that could glue into a name ({@link gluesIntoName}:
 * judged on `before`'s kinds) touches in `after` exactly when it touched in `before`. The token
 * before `first` is paired too, since an edit at the start of the range can join or part it from
 * the first. A language server reuses a check across an edit only when this holds.
 */
export function sameGlue(before: ScanResult, after: ScanResult, first: number, end: number): boolean {
  for (let i = Math.max(0, first - 1); i < end && i + 1 < before.count; i++) {
    if (!gluesIntoName(before.kinds[i] as number, before.kinds[i + 1] as number)) continue;
    if ((before.ends[i] === before.starts[i + 1]) !== (after.ends[i] === after.starts[i + 1])) return false;
  }
  return true;
}
