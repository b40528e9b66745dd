/**
 * Text that came from an envelope (ids, versions, JSON Pointers naming a producer's own field)
 * on its way into a log line, a metric label, a terminal or a web page: control characters and
 * lone surrogates could rewrite a terminal or break a UTF-8 file, and an unbounded id could fill
 * a disk or a metrics backend. Each goes through {@link boundText} first.
 */

/** C0 controls, DEL, C1 controls, and UTF-16 surrogates without their pair. */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Marks a cut: the text went on beyond what is shown. */
export const ELLIPSIS = "\u2026";

/**
 * Replaces every control character (including tab and line breaks) and every unpaired surrogate
 * with U+FFFD, then cuts the text to at most `max` UTF-16 code units, the last being `…` when
 * something was cut. A surrogate pair is never split.
 *
 * @param text - any string
 * @param max - the longest result, in UTF-16 code units, at least 1
 */
export function boundText(text: string, max: number): string {
  const clean = UNPRINTABLE.test(text) ? text.replace(UNPRINTABLE, "\ufffd") : text;
  // `test` on a global regex moves lastIndex: reset it for the next call.
  UNPRINTABLE.lastIndex = 0;
  if (clean.length <= max) return clean;
  let end = max - 1;
  const last = clean.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return clean.slice(0, end) + ELLIPSIS;
}
