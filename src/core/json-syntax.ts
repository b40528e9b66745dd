/**
 * Where JSON text first breaks the grammar of RFC 8259 (https://www.rfc-editor.org/rfc/rfc8259),
 * and what is wrong there, in words for an error that points at a line and column of a file or
 * log (the scan is `json-fault.ts`'s, which the runtimes' `invalid-json` reasons use too).
 * `JSON.parse` says where only for some of its errors ("Unexpected token '}', ... is not valid
 * JSON" names no position), and it quotes the text it stopped at, which is the file's own content.
 */
import { findJsonFault, type JsonExpected, type JsonFault } from "./json-fault.js";
import { escapeUntrusted, QUOTE_LIMIT } from "./untrusted-text.js";

/** The first place JSON text is not JSON: a UTF-16 code unit offset and what is wrong there. */
export interface JsonSyntaxError {
  readonly offset: number;
  /** What is wrong, in words, naming at most one character of the text (escaped). */
  readonly problem: string;
}

/**
 * Why `text`, which `JSON.parse` refused with `error`, is not JSON, and where: its first syntax
 * error ({@link findJsonSyntaxError}); should the two parsers ever disagree, the start of the
 * text and `JSON.parse`'s own message, escaped and bounded (it quotes the text).
 */
export function jsonError(text: string, error: unknown): JsonSyntaxError {
  return findJsonSyntaxError(text) ?? { offset: 0, problem: escapeUntrusted(error instanceof Error ? error.message : String(error), QUOTE_LIMIT) };
}

/** What the grammar wanted, in words; `first`: right after an opening bracket or brace. */
function wantedWords(expected: JsonExpected, first: boolean): string {
  switch (expected) {
    case "value":
      return first ? "a value or ']'" : "a value";
    case "key":
      return first ? "a key in double quotes or '}'" : "a key in double quotes";
    case "colon":
      return "':' after the key";
    case "object-next":
      return "',' or '}'";
    case "array-next":
      return "',' or ']'";
  }
}

/** Which part of a number wants the digit at `offset`: after `-`, the decimal point or the exponent's `e`. */
function digitWords(text: string, offset: number): string {
  const before = text.charAt(offset - 1);
  if (before === ".") return "a digit must follow the decimal point";
  if (before === "-" && !/[eE]/.test(text.charAt(offset - 2))) return "a digit must follow '-'";
  return "a digit must follow the exponent's e";
}

/** The words for `fault`, found in `text`. */
function problemOf(text: string, fault: JsonFault): string {
  const found = fault.offset >= text.length ? "the end of the text" : `'${escapeUntrusted(String.fromCodePoint(text.codePointAt(fault.offset) as number))}'`;
  const expected = (wanted: string): string => `expected ${wanted}, found ${found}`;
  switch (fault.kind) {
    case "empty":
      return expected("a value");
    case "truncated":
      return expected(wantedWords(fault.expected ?? "value", fault.first === true));
    case "value":
    case "key":
    case "colon":
    case "object-next":
    case "array-next":
      return expected(wantedWords(fault.kind, fault.first === true));
    case "after":
      return expected("the end of the text after the JSON value");
    case "unclosed":
      return "the string is not closed: a '\"' is missing";
    case "control":
      return "a control character in a string must be escaped (\\n, \\t, \\u0000)";
    case "escape":
      return "a backslash in a string must start an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hex digits";
    case "unicode":
      return "\\u in a string must be followed by four hex digits";
    case "leading-zero":
      return "a number must not start with 0 unless it is 0 (write 7, not 07)";
    case "digit":
      return digitWords(text, fault.offset);
    case "depth":
      // Not reached: files and logs are read at any depth.
      return expected("no deeper nesting");
  }
}

/**
 * The first syntax error of `text`, or `undefined` when it is one JSON value (with whitespace
 * around it), at any depth. One pass with an explicit stack, so deep nesting cannot overflow the
 * call stack.
 *
 * @param text - the JSON text, a leading byte order mark already removed
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const fault = findJsonFault(text, Infinity);
  return fault === undefined ? undefined : { offset: fault.offset, problem: problemOf(text, fault) };
}
