/**
 * Where JSON text first stops being JSON this runtime reads, for the `invalid-json` reason of
 * `parseEnvelope`. `JSON.parse` words its errors its own way, differently on Node 20 and 22, and
 * Python's `json.loads` another way again, so their messages cannot be a verdict that both
 * runtimes and every machine give alike. This locator runs only after the native parser has
 * refused a text (or found it nested past the limit): the scan of `core/json-fault.ts` with the
 * nesting limit {@link MAX_DEPTH}, one message per kind of fault. The Python runtime's
 * `_json_fault.py` is the same scan, line for line; a differential test holds them equal.
 */
import { findJsonFault } from "../core/json-fault.js";
import { MAX_DEPTH } from "./reason-catalogue.js";
import { ruleReason, type Reason } from "./reason.js";

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
  const fault = findJsonFault(text, MAX_DEPTH);
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
