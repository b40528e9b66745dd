/**
 * Text that comes from an envelope or a graph (agent ids, questions, property names) on its way
 * to a terminal or a log: every character that could act instead of print is written as an
 * escape, and quoted values are cut to a bounded length. The characters:
 * - C0 and C1 controls and DEL (ECMA-48: ESC starts an ANSI sequence, U+009B is a one-byte CSI,
 *   NUL and BEL do what they do), line and paragraph separators;
 * - bidirectional formatting characters (Unicode UAX #9: they reorder what is displayed, the
 *   "Trojan Source" attack, CVE-2021-42574) and invisible format characters (zero-width space
 *   and joiners, word joiner, the BOM, interlinear annotation);
 * - unpaired UTF-16 surrogates (not text: RFC 8259 section 8.2, RFC 7493 section 2.1).
 * Each becomes `\n`, `\t`, `\r` or `\uXXXX` as JSON writes them, so what is shown reads back.
 */

/** The longest quoted value, in code points, before it is cut (about one terminal line). */
export const QUOTE_LIMIT = 120;

const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const JSON_UNSAFE = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;
const UNSAFE_OR_QUOTE = new RegExp(`${UNSAFE.source}|["\\\\]`, "g");
const SHORT: Readonly<Record<string, string>> = { "\n": "\\n", "\t": "\\t", "\r": "\\r", '"': '\\"', "\\": "\\\\" };

function escapeChar(char: string): string {
  return SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * Whether UTF-16 code unit `code` is one of the bidirectional or invisible format characters of
 * this module's comment (U+00AD, U+061C, U+180E, U+200B-U+200F, U+2028-U+202E, U+2060-U+206F,
 * U+FEFF, U+FFF9-U+FFFB): printable text must not carry them raw, though they are not controls.
 */
export function isFormatCharacter(code: number): boolean {
  return (
    code === 0xad ||
    code === 0x61c ||
    code === 0x180e ||
    (code >= 0x200b && code <= 0x200f) ||
    (code >= 0x2028 && code <= 0x202e) ||
    (code >= 0x2060 && code <= 0x206f) ||
    code === 0xfeff ||
    (code >= 0xfff9 && code <= 0xfffb)
  );
}

/**
 * `text` with every unsafe character (see the module comment) written as an escape; every other
 * character, backslashes included, is kept. For whole lines whose parts are already quoted:
 * applying it twice changes nothing. With `limit`, the text is cut after that many code points,
 * with `…` and the number left out.
 *
 * @param text - any string, well-formed or not
 * @param limit - code points shown before the cut (default: no cut)
 * @returns printable text
 */
export function escapeUntrusted(text: string, limit = Infinity): string {
  const { shown, left } = cut(text, limit);
  UNSAFE.lastIndex = 0;
  const body = UNSAFE.test(shown) ? shown.replace(UNSAFE, escapeChar) : shown;
  return left > 0 ? `${body}… (${left} more characters)` : body;
}

/**
 * `text` cut after `limit` code points, never between the halves of a surrogate pair, and never
 * inside an escape this module writes (`\n`, `\uXXXX`): text escaped once and cut again (a report
 * fits an escaped name to its column) must not end in half an escape that reads as neither.
 */
function cut(text: string, limit: number): { shown: string; left: number } {
  if (text.length <= limit) return { shown: text, left: 0 };
  let end = 0;
  for (let count = 0; count < limit && end < text.length; count++) {
    const code = text.charCodeAt(end);
    end += code >= 0xd800 && code <= 0xdbff && end + 1 < text.length && (text.charCodeAt(end + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  if (end >= text.length) return { shown: text, left: 0 };
  const backslash = text.lastIndexOf("\\", end - 1);
  if (backslash !== -1 && backslash >= end - 5 && backslash + (text[backslash + 1] === "u" ? 6 : 2) > end) end = backslash;
  return { shown: text.slice(0, end), left: [...text.slice(end)].length };
}

/**
 * `value` as a double-quoted string safe to print: unsafe characters, `"` and `\` escaped as JSON
 * escapes them, and cut after `limit` code points with `…` and the number left out, so one
 * hostile field cannot flood a log line. A value that is not a string is shown as JSON would
 * show a number, boolean or null, bounded the same way; an object or array is named, not shown.
 *
 * @param value - the untrusted value (any type)
 * @param limit - code points shown before the cut (default {@link QUOTE_LIMIT})
 */
export function quoteUntrusted(value: unknown, limit = QUOTE_LIMIT): string {
  if (typeof value !== "string") return plain(value, limit);
  const { shown, left } = cut(value, limit);
  const body = shown.replace(UNSAFE_OR_QUOTE, escapeChar);
  return left > 0 ? `"${body}…" (${left} more characters)` : `"${body}"`;
}

function plain(value: unknown, limit: number): string {
  if (value === null || typeof value !== "object") return escapeUntrusted(String(value), limit);
  return Array.isArray(value) ? "an array" : "an object";
}

/**
 * `JSON.stringify(value, null, indent)` with the unsafe characters JSON leaves as they are (C1
 * controls, bidirectional and invisible format characters, line separators) written as `\uXXXX`
 * escapes too. The result parses back to the same value.
 *
 * @param value - JSON data
 * @param indent - as for `JSON.stringify`
 */
export function stringifyUntrusted(value: unknown, indent?: number): string {
  // JSON.stringify already escapes C0 controls and unpaired surrogates; the rest can only occur
  // inside strings, where an escape means the same character.
  const text = JSON.stringify(value, null, indent);
  JSON_UNSAFE.lastIndex = 0;
  return JSON_UNSAFE.test(text) ? text.replace(JSON_UNSAFE, escapeChar) : text;
}
