/**
 * Where JSON text first breaks the grammar of RFC 8259 (https://www.rfc-editor.org/rfc/rfc8259),
 * and what is wrong there, for an error that points at a line and column. `JSON.parse` says
 * where only for some of its errors ("Unexpected token '}', ... is not valid JSON" names no
 * position), and it quotes the text it stopped at, which is the file's own content.
 */
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

/** What comes next, as the grammar has it. */
type Expect = "value" | "first-value" | "key" | "first-key" | "colon" | "after-value" | "end";

const isSpace = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;
const isHex = (code: number): boolean => isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);

/**
 * The first syntax error of `text`, or `undefined` when it is one JSON value (with whitespace
 * around it). One pass with an explicit stack, so deep nesting cannot overflow the call stack.
 *
 * @param text - the JSON text, a leading byte order mark already removed
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const closers: number[] = [];
  let expect: Expect = "value";
  let i = 0;
  const found = (at: number): string => (at >= text.length ? "the end of the text" : `'${escapeUntrusted(String.fromCodePoint(text.codePointAt(at) as number))}'`);
  const fail = (at: number, wanted: string): JsonSyntaxError => ({ offset: at, problem: `expected ${wanted}, found ${found(at)}` });
  // After a value: the container it is in decides what may follow.
  const afterValue = (): Expect => (closers.length === 0 ? "end" : "after-value");
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    const code = i < text.length ? text.charCodeAt(i) : -1;
    switch (expect) {
      case "end":
        return code === -1 ? undefined : fail(i, "the end of the text after the JSON value");
      case "colon":
        if (code !== 0x3a /* : */) return fail(i, "':' after the key");
        i++;
        expect = "value";
        continue;
      case "after-value": {
        const closer = closers[closers.length - 1] as number;
        if (code === 0x2c /* , */) {
          i++;
          expect = closer === 0x7d ? "key" : "value";
          continue;
        }
        if (code === closer) {
          i++;
          closers.pop();
          expect = afterValue();
          continue;
        }
        return fail(i, closer === 0x7d ? "',' or '}'" : "',' or ']'");
      }
      case "key":
      case "first-key":
        if (code === 0x7d /* } */ && expect === "first-key") {
          i++;
          closers.pop();
          expect = afterValue();
          continue;
        }
        if (code !== 0x22 /* " */) return fail(i, expect === "first-key" ? "a key in double quotes or '}'" : "a key in double quotes");
        {
          const end = stringEnd(text, i);
          if (typeof end !== "number") return end;
          i = end;
        }
        expect = "colon";
        continue;
      case "value":
      case "first-value": {
        if (code === 0x5d /* ] */ && expect === "first-value") {
          i++;
          closers.pop();
          expect = afterValue();
          continue;
        }
        if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
          closers.push(code === 0x7b ? 0x7d : 0x5d);
          i++;
          expect = code === 0x7b ? "first-key" : "first-value";
          continue;
        }
        let end: number | JsonSyntaxError | undefined;
        if (code === 0x22) end = stringEnd(text, i);
        else if (code === 0x2d /* - */ || isDigit(code)) end = numberEnd(text, i);
        else {
          for (const word of ["true", "false", "null"]) if (text.startsWith(word, i)) end = i + word.length;
        }
        if (end === undefined) return fail(i, expect === "first-value" ? "a value or ']'" : "a value");
        if (typeof end !== "number") return end;
        i = end;
        expect = afterValue();
        continue;
      }
    }
  }
}

/** The offset after the string that opens at `start`, or the error inside it. */
function stringEnd(text: string, start: number): number | JsonSyntaxError {
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) return { offset: i, problem: "a control character in a string must be escaped (\\n, \\t, \\u0000)" };
    if (code !== 0x5c /* \ */) continue;
    const escaped = text.charCodeAt(i + 1);
    if (escaped === 0x75 /* u */) {
      for (let k = i + 2; k < i + 6; k++) {
        if (!isHex(text.charCodeAt(k))) return { offset: i, problem: "\\u in a string must be followed by four hex digits" };
      }
      i += 5;
    } else if (i + 1 < text.length && '"\\/bfnrt'.includes(text.charAt(i + 1))) i++;
    else return { offset: i, problem: "a backslash in a string must start an escape: \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hex digits" };
  }
  return { offset: start, problem: "the string is not closed: a '\"' is missing" };
}

/** The offset after the number that starts at `start` (RFC 8259 section 6), or its error. */
function numberEnd(text: string, start: number): number | JsonSyntaxError {
  let i = start;
  if (text.charCodeAt(i) === 0x2d) i++;
  const bad = (at: number, problem: string): JsonSyntaxError => ({ offset: at, problem });
  if (text.charCodeAt(i) === 0x30 /* 0 */) {
    i++;
    if (isDigit(text.charCodeAt(i))) return bad(start, "a number must not start with 0 unless it is 0 (write 7, not 07)");
  } else if (isDigit(text.charCodeAt(i))) {
    while (isDigit(text.charCodeAt(i))) i++;
  } else return bad(i, "a digit must follow '-'");
  if (text.charCodeAt(i) === 0x2e /* . */) {
    i++;
    if (!isDigit(text.charCodeAt(i))) return bad(i, "a digit must follow the decimal point");
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(text.charCodeAt(i))) return bad(i, "a digit must follow the exponent's e");
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}
