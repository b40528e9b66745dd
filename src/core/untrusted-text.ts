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
 * with `…` and the number left out; text that was cut before is cut once, its number counting
 * from the text first cut.
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
 * The mark {@link escapeUntrusted} puts after a cut text, with the number of code points left
 * out. Text read back from a log (an event's receiver) may end in it; at most 15 digits, so the
 * number is a safe integer.
 */
const CUT_MARK = /\u2026 \((\d{1,15}) more characters\)$/;

/**
 * `text` cut after `limit` code points, never between the halves of a surrogate pair, and never
 * inside an escape this module writes (`\n`, `\uXXXX`): text escaped once and cut again (a report
 * fits an escaped name to its column) must not end in half an escape that reads as neither.
 * Text that already ends in a cut mark is cut once, not twice: the mark's number joins what this
 * cut leaves out, so the count stays that of the text first written, and the mark is not itself
 * counted as text (a name cut at 200 in a log and at 48 in a terminal column says how much of
 * the name is missing, not how much of the first cut).
 */
function cut(text: string, limit: number): { shown: string; left: number } {
  if (text.length <= limit) return { shown: text, left: 0 };
  const mark = CUT_MARK.exec(text);
  if (mark === null) return cutPlain(text, limit);
  const { shown, left } = cutPlain(text.slice(0, mark.index), limit);
  return { shown, left: left + Number(mark[1]) };
}

/** {@link cut} for text without a cut mark. */
function cutPlain(text: string, limit: number): { shown: string; left: number } {
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
 * Texts made by {@link escapeUntrusted} (some cut, some not) joined into one, cut once: when a
 * part ends in a cut mark, the joined text stops there and its mark also counts the code points
 * of the parts after it. `escapeUntrusted(joinUntrusted([producer, " -> ", receiver]), 48)` then
 * says how much of the whole label is missing, whichever name was cut.
 *
 * @param parts - escaped texts, in order
 * @returns their concatenation, with at most one cut mark, at its end
 */
export function joinUntrusted(parts: readonly string[]): string {
  let joined = "";
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    const mark = CUT_MARK.exec(part);
    if (mark === null) {
      joined += part;
      continue;
    }
    let left = Number(mark[1]);
    for (const after of parts.slice(i + 1)) {
      const afterMark = CUT_MARK.exec(after);
      left += afterMark === null ? codePoints(after) : codePoints(after.slice(0, afterMark.index)) + Number(afterMark[1]);
    }
    return `${joined}${part.slice(0, mark.index)}\u2026 (${left} more characters)`;
  }
  return joined;
}

function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    count++;
  }
  return count;
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
