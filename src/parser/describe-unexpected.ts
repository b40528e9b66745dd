/**
 * The message for characters that start no token (the lexer's one kind of error besides bad
 * strings and unterminated comments).
 */

/**
 * `unexpected character '#'`, or `unexpected characters '##'` for a run; invisible or non-ASCII
 * characters are named by code point (`U+00A0`). At most 16 characters are shown. A zero width
 * joiner or non-joiner (inside a name, where it hides) says why it is refused.
 */
export function describeUnexpected(chunk: string): string {
  const characters = [...chunk];
  const shown = characters
    .slice(0, 16)
    .map((c) => (/^[\x21-\x7e]$/.test(c) ? c : `U+${(c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, "0")}`));
  const printable = shown.every((s) => s.length === 1);
  const text = printable ? `'${shown.join("")}'` : shown.join(" ");
  const more = characters.length > 16 ? "..." : "";
  const message = `unexpected ${characters.length === 1 ? "character" : "characters"} ${text}${more}`;
  if (!characters.every((c) => c === "\u200c" || c === "\u200d")) return message;
  return `${message}: a name cannot hold the invisible joiners U+200C and U+200D, since two names that look the same would differ; remove ${characters.length === 1 ? "it" : "them"}`;
}
