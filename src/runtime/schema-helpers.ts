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

/** Length of a string in Unicode code points (Ajv's `minLength`/`maxLength` count these). */
export const ucs2length = commonJsDefault<(text: string) => number>(ajvUcs2length, isFunction);

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

/**
 * The string formats the envelope schema uses: `uuid` (above), and `date-time` (RFC 3339, time
 * zone required) and `uri` (RFC 3986, absolute) as ajv-formats defines them ("full" mode). The
 * Ajv instances that compile Seam's schemas register exactly these, and generated code reads
 * `formats[name]`.
 */
export const formats = {
  uuid: UUID,
  "date-time": full["date-time"],
  uri: full.uri,
} as const;
