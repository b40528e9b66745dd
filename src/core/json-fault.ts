/**
 * Where JSON text first stops being JSON, by kind of fault and offset: the grammar of RFC 8259
 * (https://www.rfc-editor.org/rfc/rfc8259) plus a nesting limit (section 9 lets a parser set
 * one). One scanner for every reader that must say where JSON breaks: the runtime's
 * `invalid-json` reasons (`runtime/json-fault.ts`, worded by `reasons.json`; the Python runtime's
 * `_json_fault.py` is the same scan, line for line) and the CLI's file and log errors
 * (`json-syntax.ts`). It runs only after a native parser refused a text (or found it too deep),
 * because `JSON.parse` words its errors differently on each Node version and names no place for
 * some of them.
 */

/** What is wrong at a fault: the id of its `invalid-json` message in `reasons.json`. */
export type JsonFaultKind =
  | "empty"
  | "value"
  | "key"
  | "colon"
  | "object-next"
  | "array-next"
  | "after"
  | "truncated"
  | "unclosed"
  | "control"
  | "escape"
  | "unicode"
  | "leading-zero"
  | "digit"
  | "depth";

/** What the grammar wanted where a text broke off or went wrong. */
export type JsonExpected = "value" | "key" | "colon" | "object-next" | "array-next";

/** The first fault of a JSON text. */
export interface JsonFault {
  readonly kind: JsonFaultKind;
  /** UTF-16 code unit offset in the text: the end of the text for `empty` and `truncated`, the opening quote for `unclosed`. */
  readonly offset: number;
  /** For `truncated`: what the grammar wanted where the text ends. */
  readonly expected?: JsonExpected;
  /**
   * For `value` and `key`, and `truncated` wanting one: the place is right after an opening
   * bracket or brace, where the closer would do too (`[` then a value or `]`).
   */
  readonly first?: true;
}

// What may come next, as the grammar has it (numbers, not strings: the loop runs per token).
const VALUE = 0;
const FIRST_VALUE = 1; // right after '[': a value or ']'
const KEY = 2;
const FIRST_KEY = 3; // right after '{': a key or '}'
const COLON = 4;
const NEXT = 5; // after a value inside an array or object: ',' or its closer
const END = 6; // after the top-level value: only whitespace

const isSpace = (code: number): boolean => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;
const isHex = (code: number): boolean => isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);

/**
 * The first fault of `text`, or `undefined` when it is one JSON value (whitespace around it
 * allowed) nested at most `maxDepth` levels. One pass with an explicit stack, so no text can
 * overflow the call stack; it stops at the first fault, so its work is bounded by where that is.
 *
 * @param text - the JSON text, its byte order mark (if any) already removed
 * @param maxDepth - the deepest nesting of arrays and objects read (`Infinity` for none)
 */
export function findJsonFault(text: string, maxDepth: number): JsonFault | undefined {
  const closers: number[] = [];
  const n = text.length;
  let state = VALUE;
  let i = 0;
  for (;;) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) {
      if (state === END) return undefined;
      // VALUE with nothing open is the state of the start only.
      if (state === VALUE && closers.length === 0) return { kind: "empty", offset: n };
      return { kind: "truncated", offset: n, ...wanted(state, closers) };
    }
    const code = text.charCodeAt(i);
    switch (state) {
      case END:
        return { kind: "after", offset: i };
      case COLON:
        if (code !== 0x3a /* : */) return { kind: "colon", offset: i };
        i++;
        state = VALUE;
        continue;
      case NEXT: {
        const closer = closers[closers.length - 1];
        if (code === 0x2c /* , */) {
          i++;
          state = closer === 0x7d ? KEY : VALUE;
        } else if (code === closer) {
          i++;
          closers.pop();
          state = closers.length === 0 ? END : NEXT;
        } else return { kind: closer === 0x7d ? "object-next" : "array-next", offset: i };
        continue;
      }
      case FIRST_KEY:
      case KEY: {
        if (code === 0x7d /* } */ && state === FIRST_KEY) {
          i++;
          closers.pop();
          state = closers.length === 0 ? END : NEXT;
          continue;
        }
        if (code !== 0x22 /* " */) return state === FIRST_KEY ? { kind: "key", offset: i, first: true } : { kind: "key", offset: i };
        const end = stringEnd(text, i);
        if (typeof end !== "number") return end;
        i = end;
        state = COLON;
        continue;
      }
      default: {
        // VALUE or FIRST_VALUE.
        if (code === 0x5d /* ] */ && state === FIRST_VALUE) {
          i++;
          closers.pop();
          state = closers.length === 0 ? END : NEXT;
          continue;
        }
        if (code === 0x7b /* { */ || code === 0x5b /* [ */) {
          if (closers.length >= maxDepth) return { kind: "depth", offset: i };
          closers.push(code === 0x7b ? 0x7d : 0x5d);
          i++;
          state = code === 0x7b ? FIRST_KEY : FIRST_VALUE;
          continue;
        }
        let end: number | JsonFault;
        if (code === 0x22) end = stringEnd(text, i);
        else if (code === 0x2d /* - */ || isDigit(code)) end = numberEnd(text, i);
        else if (text.startsWith("true", i) || text.startsWith("null", i)) end = i + 4;
        else if (text.startsWith("false", i)) end = i + 5;
        else return state === FIRST_VALUE ? { kind: "value", offset: i, first: true } : { kind: "value", offset: i };
        if (typeof end !== "number") return end;
        i = end;
        state = closers.length === 0 ? END : NEXT;
      }
    }
  }
}

/** What state `state` wants next, for a text that ends there. */
function wanted(state: number, closers: readonly number[]): Pick<JsonFault, "expected" | "first"> {
  if (state === COLON) return { expected: "colon" };
  if (state === NEXT) return { expected: closers[closers.length - 1] === 0x7d ? "object-next" : "array-next" };
  const expected = state === KEY || state === FIRST_KEY ? "key" : "value";
  return state === FIRST_KEY || state === FIRST_VALUE ? { expected, first: true } : { expected };
}

/** The offset after the string whose opening quote is at `start`, or its fault. */
function stringEnd(text: string, start: number): number | JsonFault {
  const n = text.length;
  for (let i = start + 1; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) return { kind: "control", offset: i };
    if (code !== 0x5c /* \ */) continue;
    if (i + 1 >= n) break;
    const escaped = text.charCodeAt(i + 1);
    if (escaped === 0x75 /* u */) {
      // A text that ends inside the four digits is an unclosed string, as anywhere else in one.
      if (i + 6 > n) break;
      for (let k = i + 2; k < i + 6; k++) if (!isHex(text.charCodeAt(k))) return { kind: "unicode", offset: i };
      i += 5;
    } else if (
      escaped === 0x22 ||
      escaped === 0x5c ||
      escaped === 0x2f /* / */ ||
      escaped === 0x62 /* b */ ||
      escaped === 0x66 /* f */ ||
      escaped === 0x6e /* n */ ||
      escaped === 0x72 /* r */ ||
      escaped === 0x74 /* t */
    ) {
      i++;
    } else return { kind: "escape", offset: i };
  }
  return { kind: "unclosed", offset: start };
}

/** The offset after the number that starts at `start` (RFC 8259 section 6), or its fault. */
function numberEnd(text: string, start: number): number | JsonFault {
  let i = start;
  if (text.charCodeAt(i) === 0x2d) i++;
  if (text.charCodeAt(i) === 0x30 /* 0 */) {
    i++;
    if (isDigit(text.charCodeAt(i))) return { kind: "leading-zero", offset: start };
  } else if (isDigit(text.charCodeAt(i))) {
    while (isDigit(text.charCodeAt(i))) i++;
  } else return { kind: "digit", offset: i };
  if (text.charCodeAt(i) === 0x2e /* . */) {
    i++;
    if (!isDigit(text.charCodeAt(i))) return { kind: "digit", offset: i };
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    if (!isDigit(text.charCodeAt(i))) return { kind: "digit", offset: i };
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}
