/**
 * JSON Pointer (RFC 6901) helpers for rejection reasons: every reason names the offending field
 * as a pointer such as `/hop/index` or `/artefacts/0/ref`.
 */

/**
 * Appends one reference token to a pointer, escaping `~` as `~0` and `/` as `~1` (RFC 6901
 * section 3).
 *
 * @param pointer - a JSON Pointer (`""` is the whole document)
 * @param token - a property name or an array index
 */
export function appendPointer(pointer: string, token: string | number): string {
  if (typeof token === "number") return `${pointer}/${token}`;
  return `${pointer}/${token.indexOf("~") === -1 && token.indexOf("/") === -1 ? token : token.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}
