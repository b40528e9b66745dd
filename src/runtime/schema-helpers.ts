/**
 * The helpers that Ajv's generated validation code calls, for emitted modules to import from
 * `seam-handoff/runtime` instead of `require()`-ing Ajv internals (Ajv's standalone ESM output still
 * writes `require("ajv/dist/runtime/...")`, which a plain ES module cannot run). They are Ajv's
 * and ajv-formats' own functions, so emitted validators behave exactly like Ajv-compiled ones.
 */
import ajvEqual from "ajv/dist/runtime/equal.js";
import ajvUcs2length from "ajv/dist/runtime/ucs2length.js";
import ajvFormats from "ajv-formats/dist/formats.js";

/**
 * What a CommonJS module (`exports.default = value`, flagged `__esModule`) gives as its default
 * import: Node hands over `module.exports`, bundlers and Vite that honour `__esModule` hand over
 * `exports.default` itself. Emitted modules must load both ways.
 */
function commonJsDefault<T>(imported: unknown, isValue: (candidate: unknown) => candidate is T): T {
  if (isValue(imported)) return imported;
  const inner = (imported as { default?: unknown } | null)?.default;
  if (isValue(inner)) return inner;
  throw new Error("internal: an Ajv runtime helper has an unexpected module shape");
}

const isFunction = <F>(candidate: unknown): candidate is F => typeof candidate === "function";

const ajvLength = commonJsDefault<(text: string) => number>(ajvUcs2length, isFunction);

/** Any UTF-16 surrogate: only a string holding one can have fewer code points than code units. */
const SURROGATE = /[\ud800-\udfff]/;

/**
 * Length of a string in Unicode code points (Ajv's `minLength`/`maxLength` count these), as
 * Ajv's own `ucs2length` counts them (a lone surrogate counts as one). A string without
 * surrogates has one code point per code unit, which a native scan tells faster than a loop
 * over every code unit; every `minLength` and `maxLength` of the envelope pays it.
 */
export function ucs2length(text: string): number {
  return SURROGATE.test(text) ? ajvLength(text) : text.length;
}

/** Deep equality of JSON values (Ajv's `const`, `enum` with objects, `uniqueItems`). */
export const equal = commonJsDefault<(a: unknown, b: unknown) => boolean>(ajvEqual, isFunction);

type FormatsModule = typeof ajvFormats;
const full = commonJsDefault<FormatsModule>(
  ajvFormats,
  (candidate): candidate is FormatsModule => typeof (candidate as { fullFormats?: unknown } | null)?.fullFormats === "object",
).fullFormats;

/**
 * `uuid` as JSON Schema 2020-12 defines it (section 7.3.5): the string representation of RFC 4122
 * (RFC 9562 section 4), 8-4-4-4-12 hex digits in either case. ajv-formats also takes the URN form
 * `urn:uuid:...`, which other validators (and the Python runtime) refuse, so one envelope would get
 * two verdicts; Seam takes the string representation only.
 */
const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

type StringFormat = { readonly validate: (text: string) => boolean; readonly compare: (a: string, b: string) => number | undefined };
const ajvDateTime = full["date-time"] as StringFormat;
const ajvUri = full.uri as (text: string) => boolean;

/**
 * The usual shape of an RFC 3339 date-time, `2026-03-11T08:40:19.25Z` or with `+01:00`: upper-case
 * `T` and `Z`, at most 9 fraction digits (so that `+seconds` stays below 60, as ajv-formats reads it).
 */
const USUAL_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:\d\d)$/;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** The number of the two ASCII digits at `at`. */
const twoDigits = (text: string, at: number): number => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

/**
 * Whether `text` is a date-time of the usual shape with fields in range: each one it takes,
 * ajv-formats' `date-time` takes too (same field ranges, no leap second); it answers the rest.
 */
function usualDateTime(text: string): boolean {
  if (!USUAL_DATE_TIME.test(text)) return false;
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (month < 1 || month > 12 || day < 1) return false;
  // RFC 3339 appendix C.
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : (DAYS[month] as number))) return false;
  if (twoDigits(text, 11) > 23 || twoDigits(text, 14) > 59 || twoDigits(text, 17) > 59) return false;
  const end = text.length;
  return text.charCodeAt(end - 1) === 0x5a /* Z */ || (twoDigits(text, end - 5) <= 23 && twoDigits(text, end - 2) <= 59);
}

/**
 * The usual shape of an absolute URI, `scheme://host/path?query#fragment`: ajv-formats' `uri`
 * expression with a registered-name host and without user info or port, so each URI it takes,
 * ajv-formats' `uri` takes too; it answers the rest.
 */
const USUAL_URI =
  /^[a-z][a-z0-9+\-.]*:\/\/(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

/**
 * The string formats the envelope schema uses: `uuid` (above), and `date-time` (RFC 3339, time
 * zone required) and `uri` (RFC 3986, absolute) as ajv-formats defines them ("full" mode): the
 * same strings pass and fail, and the usual shapes are told by one short expression before
 * ajv-formats' general ones run (every envelope holds several). The Ajv instances that compile
 * Seam's schemas register exactly these, and generated code reads `formats[name]`.
 */
export const formats = {
  uuid: UUID,
  "date-time": { validate: (text: string): boolean => usualDateTime(text) || ajvDateTime.validate(text), compare: ajvDateTime.compare },
  uri: (text: string): boolean => USUAL_URI.test(text) || ajvUri(text),
} as const;
