/**
 * Control characters and lone surrogates, which a `.seam` string can hold through `\u` escapes,
 * have no place in a picture: Mermaid and DOT readers choke on NUL, and a lone surrogate is not
 * valid UTF-8 in the written file. Both become U+FFFD, the replacement character.
 */
const UNPRINTABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Replaces C0 control characters (other than tab and line breaks, which the escapers handle),
 * DEL and unpaired surrogates with U+FFFD.
 */
export function replaceUnprintable(text: string): string {
  return text.replace(UNPRINTABLE, "\ufffd");
}
