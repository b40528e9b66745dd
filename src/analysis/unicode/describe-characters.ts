/**
 * Characters beyond ASCII named by code point, for messages about names that look alike: the
 * names themselves read the same, so the message says which characters differ.
 */

/** How many code points a message lists before `and N more`. */
const SHOWN = 4;

/**
 * The distinct characters of `text` beyond ASCII as `U+0435`, in order of first occurrence:
 * `U+0435, U+0430` or `U+0435, U+0430, U+043E, U+0440 and 2 more`.
 */
export function codePointsBeyondAscii(text: string): string {
  const points = [...new Set([...text].filter((c) => c.charCodeAt(0) > 0x7f))].map(
    (c) => `U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`,
  );
  const more = points.length - SHOWN;
  return more > 0 ? `${points.slice(0, SHOWN).join(", ")} and ${more} more` : points.join(", ");
}
