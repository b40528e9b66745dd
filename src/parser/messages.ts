/**
 * Syntax error messages in plain words: what was found, what was expected, after which token,
 * e.g. `expected '->' after 'research', found '{'` (tsc and rustc word theirs the same way).
 */
import { escapeUntrusted } from "../core/untrusted-text.js";

/**
 * How a found token is shown: its text in quotes (shortened), or `end of file`. A string token
 * can hold raw control characters (ESC, BEL), so they are written as escapes: the message goes
 * to terminals and editors.
 */
export function describeFound(image: string | undefined): string {
  if (image === undefined) return "end of file";
  const shown = image.length > 24 ? `${image.slice(0, 21)}...` : image;
  return `'${escapeUntrusted(shown)}'`;
}

/** `a`, `a or b`, `a, b or c`, each once, in the order given. */
export function listAlternatives(words: readonly string[]): string {
  const unique = [...new Set(words)];
  if (unique.length <= 1) return unique[0] ?? "";
  return `${unique.slice(0, -1).join(", ")} or ${unique[unique.length - 1]}`;
}

/**
 * `expected X after 'p', found 'f'`; `previous` is the image of the last token read, undefined
 * at the start of the file; `found` is undefined at the end of the file.
 */
export function expectedMessage(expected: string, previous: string | undefined, found: string | undefined): string {
  const after = previous === undefined ? "" : ` after ${describeFound(previous)}`;
  return `expected ${expected}${after}, found ${describeFound(found)}`;
}

/**
 * The message for a keyword written where a name belongs (`agent peer: peer`): keywords are
 * reserved, so the fix is a different name.
 */
export function keywordAsName(word: string): string {
  return `'${word}' is a keyword and cannot be used as a name; rename it (e.g. '${word}_1')`;
}

/**
 * The message for digits glued to a name where a name belongs (`agent 9x: worker`, which lexes
 * as the integer `9` and the name `x`).
 */
export function nameStartsWithDigit(text: string): string {
  return `a name cannot start with a digit: '${text}'; start it with a letter or '_'`;
}
