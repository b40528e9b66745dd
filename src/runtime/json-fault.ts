/**
 * Where JSON text first stops being JSON this runtime reads, for the `invalid-json` reason of
 * `parseEnvelope`. `JSON.parse` words its errors its own way, differently on Node 20 and 22, and
 * Python's `json.loads` another way again, so their messages cannot be a verdict that both
 * runtimes and every machine give alike. This locator runs only after the native parser has
 * refused a text (or found it nested past the limit): the grammar of RFC 8259 plus the nesting
 * limit of section 9, one kind of fault per place the grammar can break. The Python runtime's
 * `_json_fault.py` is the same scan, line for line; a differential test holds them equal.
 */
import { MAX_DEPTH } from "./reason-catalogue.js";
import { ruleReason, type Reason } from "./reason.js";

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

/** The first fault of a JSON text. */
export interface JsonFault {
  readonly kind: JsonFaultKind;
  /** UTF-16 code unit offset in the text: the end of the text for `empty` and `truncated`, the opening quote for `unclosed`. */
  readonly offset: number;
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
 * @param maxDepth - the deepest nesting of arrays and objects read (default {@link MAX_DEPTH})
 */
export function findJsonFault(text: string, maxDepth: number = MAX_DEPTH): JsonFault | undefined {
  const closers: number[] = [];
  const n = text.length;
  let state = VALUE;
  let i = 0;
  for (;;) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) {
      if (state === END) return undefined;
      // VALUE with nothing open is the state of the start only.
      return { kind: state === VALUE && closers.length === 0 ? "empty" : "truncated", offset: n };
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
        if (code !== 0x22 /* " */) return { kind: "key", offset: i };
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
        else return { kind: "value", offset: i };
        if (typeof end !== "number") return end;
        i = end;
        state = closers.length === 0 ? END : NEXT;
      }
    }
  }
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

/**
 * The line and column of UTF-16 offset `offset` in `text`, both from 1: a line ends at a line
 * feed, and a column counts code points, as the Python runtime counts a `str` (a surrogate pair
 * is one character; an unpaired surrogate is one too).
 */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let feed = text.indexOf("\n"); feed !== -1 && feed < offset; feed = text.indexOf("\n", feed + 1)) {
    line++;
    start = feed + 1;
  }
  let column = 1;
  for (let i = start; i < offset; i++) {
    const code = text.charCodeAt(i);
    // The low half of a pair was counted with its high half.
    const low = code >= 0xdc00 && code <= 0xdfff;
    const previous = text.charCodeAt(i - 1);
    if (!(low && i > start && previous >= 0xd800 && previous <= 0xdbff)) column++;
  }
  return { line, column };
}

/**
 * The `invalid-json` reason (at `""`) for `text`, which `JSON.parse` refused or found nested past
 * {@link MAX_DEPTH}: its first fault with its line and column, in the words of `reasons.json`.
 * `unread` when the scan finds none (should `JSON.parse` ever refuse a text that is JSON).
 *
 * @param text - the JSON text, its byte order mark (if any) already removed
 */
export function invalidJsonReason(text: string): Reason {
  const fault = findJsonFault(text);
  if (fault === undefined) return ruleReason("", "invalid-json", "unread");
  if (fault.kind === "empty") return ruleReason("", "invalid-json", "empty");
  const { line, column } = lineAndColumn(text, fault.offset);
  if (fault.kind === "depth") return ruleReason("", "invalid-json", "depth", { limit: MAX_DEPTH, line, column });
  if (fault.kind === "control") {
    const char = `U+${text.charCodeAt(fault.offset).toString(16).toUpperCase().padStart(4, "0")}`;
    return ruleReason("", "invalid-json", "control", { char, line, column });
  }
  return ruleReason("", "invalid-json", fault.kind, { line, column });
}
