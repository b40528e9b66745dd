/**
 * `parseEnvelope(text)`: the strict reading of an envelope off the wire, before `accept()`.
 * `JSON.parse` (and Python's `json.loads`) keep the last of two equal keys silently, so an
 * envelope with `"to_agent"` twice reads one way to a reviewer or gateway and another to the
 * agent behind it; and it parses whatever size it is given. This parser refuses both: a key
 * given twice in one object (`duplicate-key`, the rule of `seam validate`) and a text past a
 * size limit (`envelope-too-large`, checked before parsing). It never throws on bad input.
 */
import { findDuplicateKeys, hasDuplicateKeys } from "./duplicate-keys.js";
import { quoteUntrusted } from "../core/untrusted-text.js";
import { MAX_ENVELOPE_BYTES } from "./reason-catalogue.js";
import { capReasons, ruleReason, type Reason } from "./reason.js";

export { MAX_ENVELOPE_BYTES };

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
      /** `invalid-json`, `envelope-too-large` (at `""`) or `duplicate-key` (at each repeated member), at most 20 per rule. */
      readonly reasons: readonly Reason[];
    };

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * The reasons of rule `duplicate-key` for JSON text that `JSON.parse` accepted: one per repeated
 * member, at its JSON Pointer, at most 20 (then one counting the rest).
 */
export function duplicateKeyReasons(json: string): Reason[] {
  return capReasons(findDuplicateKeys(json).map((d) => ruleReason(d.pointer, "duplicate-key", "twice", { key: quoteUntrusted(d.key) })));
}

/**
 * Parses one envelope strictly: UTF-8 (for bytes; a leading byte order mark is dropped), at most
 * `maxBytes`, JSON (RFC 8259) with no key twice in one object.
 *
 * @param text - the envelope as received: a string, or its bytes
 * @throws TypeError when `text` is neither, or `maxBytes` is not a positive whole number (a misuse)
 */
export function parseEnvelope(text: string | Uint8Array, options: ParseEnvelopeOptions = {}): ParsedEnvelope {
  const limit = options.maxBytes ?? MAX_ENVELOPE_BYTES;
  if (!Number.isSafeInteger(limit) || limit < 1) throw new TypeError("parseEnvelope(text, options): options.maxBytes must be a positive whole number of bytes");
  let json: string;
  if (typeof text === "string") {
    // A UTF-16 code unit is at least one byte of UTF-8: only a short text needs counting.
    const size = text.length > limit ? text.length : Buffer.byteLength(text, "utf8");
    if (size > limit) return refused(ruleReason("", "envelope-too-large", "large", { size: text.length > limit ? `more than ${limit}` : size, limit }));
    json = text;
  } else if (text instanceof Uint8Array) {
    if (text.byteLength > limit) return refused(ruleReason("", "envelope-too-large", "large", { size: text.byteLength, limit }));
    try {
      json = UTF8.decode(text);
    } catch {
      return refused(ruleReason("", "invalid-json", "utf8"));
    }
  } else {
    throw new TypeError("parseEnvelope(text, options): text must be a string or a Uint8Array (the bytes received)");
  }
  json = json.replace(/^\uFEFF/, "");
  let envelope: unknown;
  try {
    envelope = JSON.parse(json);
  } catch (error) {
    return refused(ruleReason("", "invalid-json", "syntax", { why: quoteUntrusted(error instanceof Error ? error.message : String(error)) }));
  }
  // Counting keys is cheap; naming the repeated ones runs only when there are some.
  const duplicates = hasDuplicateKeys(json, envelope) ? duplicateKeyReasons(json) : [];
  return duplicates.length > 0 ? { ok: false, reasons: duplicates } : { ok: true, envelope };
}

function refused(reason: Reason): ParsedEnvelope {
  return { ok: false, reasons: [reason] };
}
