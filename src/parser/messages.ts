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

/**
 * The message for a number written with an exponent where a number from 0 to 1 belongs
 * (`confidence >= 1e-3`): Seam writes numbers with a decimal point only. `decimal` is the same
 * number so written (`0.001`), when it is one a setting could take.
 */
export function exponentInFraction(image: string, decimal: string | undefined): string {
  return decimal === undefined
    ? `exponents are not allowed: write the number with a decimal point, such as 0.8; found ${image}`
    : `exponents are not allowed: write ${image} with a decimal point, as ${decimal}`;
}

/** The message for a number with no digit before its point (`.5`): write `0.5`. */
export function leadingDecimalPoint(image: string): string {
  return `write a digit before the decimal point: 0${image}, not ${image}`;
}

/**
 * The message for a number with an exponent or a decimal point where a whole number belongs
 * (`max_rounds 1e3`, `max_rounds .5`); `rule` says what the setting takes.
 */
export function notWholeNumber(image: string, rule: string): string {
  return `${/[eE]/.test(image) ? "exponents" : "decimals"} are not allowed: ${rule}; found ${image}`;
}
