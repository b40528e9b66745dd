/**
 * `parseEnvelope(text)`: the strict reading of an envelope off the wire, before `accept()`.
 * `JSON.parse` (and Python's `json.loads`) keep the last of two equal keys silently, so an
 * envelope with `"to_agent"` twice reads one way to a reviewer or gateway and another to the
 * agent behind it; and it parses whatever size it is given. This parser refuses both: a key
 * given twice in one object (`duplicate-key`, the rule of `seam validate`) and a text past a
 * size limit (`envelope-too-large`, checked before parsing). Text that is not JSON, or nests
 * arrays and objects past {@link MAX_DEPTH} levels (RFC 8259 section 9 lets a parser limit it;
 * `accept()` takes no deeper value anyway), is `invalid-json` with one message per kind of fault
 * and its line and column, the same from the Python runtime and on every Node version (not
 * `JSON.parse`'s own words, which differ). It never throws on bad input.
 */
import { findDuplicateKeys, parsedShape, repeatsKeys } from "./duplicate-keys.js";
import { findJsonFault } from "../core/json-fault.js";
import { invalidJsonReason } from "./json-fault.js";
import { quoteUntrusted } from "../core/untrusted-text.js";
import { MAX_DEPTH, MAX_ENVELOPE_BYTES } from "./reason-catalogue.js";
import { capReasons, ruleReason, type Reason } from "./reason.js";

export { MAX_DEPTH, MAX_ENVELOPE_BYTES };

/** Options of {@link parseEnvelope}. */
export interface ParseEnvelopeOptions {
  /** The size limit, in bytes of UTF-8 (default {@link MAX_ENVELOPE_BYTES}); a positive whole number. */
  readonly maxBytes?: number;
}

/** What {@link parseEnvelope} gives: the envelope as a value for `accept()`, or why there is none. */
export type ParsedEnvelope =
  | { readonly ok: true; readonly envelope: unknown }
  | {
      readonly ok: false;
      /**
       * One `invalid-json` (the first fault, or nesting past {@link MAX_DEPTH}) or
       * `envelope-too-large`, at `""`; or `duplicate-key` at each repeated member, at most 20.
       */
      readonly reasons: readonly Reason[];
    };

// ignoreBOM: true keeps a leading byte order mark in the text, so that the one line below that
// drops one drops exactly one from bytes and strings alike (the decoder dropping one more would
// let "\uFEFF\uFEFF{}" through as bytes only).
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The reasons of rule `duplicate-key` for JSON text that `JSON.parse` accepted: one per repeated
 * member, at its JSON Pointer, at most 20 (then one counting the rest).
 */
export function duplicateKeyReasons(json: string): Reason[] {
  return capReasons(findDuplicateKeys(json).map((d) => ruleReason(d.pointer, "duplicate-key", "twice", { key: quoteUntrusted(d.key) })));
}

/**
 * The `envelope-too-large` reason for a text past `limit` bytes of UTF-8, or `undefined` within
 * it. A UTF-16 code unit is one to three bytes of UTF-8 (a surrogate pair, two units, is four), so
 * a text of at most a third of the limit in code units is within it uncounted, and one longer
 * than the limit is past it: only the texts between are counted.
 */
function sizeReason(text: string, limit: number): Reason | undefined {
  if (text.length * 3 <= limit) return undefined;
  const size = text.length > limit ? `more than ${limit}` : Buffer.byteLength(text, "utf8");
  return typeof size === "number" && size <= limit ? undefined : tooLarge(size, limit);
}

function tooLarge(size: number | string, limit: number): Reason {
  return ruleReason("", "envelope-too-large", "large", { size, limit });
}

/**
 * Parses one envelope strictly: UTF-8 (for bytes), at most `maxBytes`, JSON (RFC 8259) nested at
 * most {@link MAX_DEPTH} levels with no key twice in one object. One leading byte order mark is
 * dropped, from bytes or a string; a second is a fault of the text. The reasons, in this order:
 * `envelope-too-large`; `invalid-json` for bytes that are not UTF-8; `invalid-json` at the first
 * fault of the text in text order (a syntax error, or the bracket that nests past the limit),
 * placed at a line and column (lines end at a line feed, columns count code points, from 1);
 * then `duplicate-key`.
 *
 * @param text - the envelope as received: a string, or its bytes
 * @throws TypeError when `text` is neither, or `maxBytes` is not a positive whole number (a misuse)
 */
export function parseEnvelope(text: string | Uint8Array, options: ParseEnvelopeOptions = {}): ParsedEnvelope {
  const limit = options.maxBytes ?? MAX_ENVELOPE_BYTES;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError("parseEnvelope(text, options): options.maxBytes must be a positive whole number of bytes");
  let json: string;
  if (typeof text === "string") {
    const large = sizeReason(text, limit);
    if (large !== undefined) return refused(large);
    json = text;
  } else if (text instanceof Uint8Array) {
    if (text.byteLength > limit) return refused(tooLarge(text.byteLength, limit));
    try {
      json = UTF8.decode(text);
    } catch {
      return refused(ruleReason("", "invalid-json", "utf8"));
    }
  } else {
    throw new TypeError("parseEnvelope(text, options): text must be a string or a Uint8Array (the bytes received)");
  }
  if (json.charCodeAt(0) === 0xfeff) json = json.slice(1);
  let envelope: unknown;
  try {
    envelope = JSON.parse(json);
  } catch {
    // The cold path: JSON.parse's words differ by Node version, so the locator names the fault.
    return refused(invalidJsonReason(json));
  }
  // One walk of the value measures the depth and counts the keys; JSON.parse read any depth, so
  // a text past the limit is found here, and the locator places the first bracket past it.
  const shape = parsedShape(envelope);
  if (shape.depth > MAX_DEPTH) return refused(invalidJsonReason(json));
  // Counting keys is cheap; naming the repeated ones runs only when there are some.
  if (!repeatsKeys(json, shape.keys)) return { ok: true, envelope };
  // The value JSON.parse dropped for a repeated key is not in the walk: the text decides its depth.
  if (findJsonFault(json, MAX_DEPTH) !== undefined) return refused(invalidJsonReason(json));
  return { ok: false, reasons: duplicateKeyReasons(json) };
}

function refused(reason: Reason): ParsedEnvelope {
  return { ok: false, reasons: [reason] };
}
