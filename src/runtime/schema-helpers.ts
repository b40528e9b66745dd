/**
 * The helpers that Ajv's generated validation code calls, for emitted modules to import from
 * `seam-handoff/runtime` instead of `require()`-ing Ajv internals (Ajv's standalone ESM output still
 * writes `require("ajv/dist/runtime/...")`, which a plain ES module cannot run). They are Ajv's
 * and ajv-formats' own functions, so emitted validators behave exactly like Ajv-compiled ones.
 */
import ajvEqual from "ajv/dist/runtime/equal.js";
import ajvUcs2length from "ajv/dist/runtime/ucs2length.js";
import ajvFormats from "ajv-formats/dist/formats.js";

/** Length of a string in Unicode code points (Ajv's `minLength`/`maxLength` count these). */
export const ucs2length: (text: string) => number = ajvUcs2length.default;

/** Deep equality of JSON values (Ajv's `const`, `enum` with objects, `uniqueItems`). */
export const equal: (a: unknown, b: unknown) => boolean = ajvEqual.default;

const full = ajvFormats.fullFormats;

/**
 * The string formats the envelope schema uses, as ajv-formats defines them ("full" mode): `uuid`
 * (RFC 4122), `date-time` (RFC 3339, time zone required) and `uri` (RFC 3986, absolute). The Ajv
 * instances that compile Seam's schemas register exactly these, and generated code reads
 * `formats[name]`.
 */
export const formats = {
  uuid: full.uuid,
  "date-time": full["date-time"],
  uri: full.uri,
} as const;
