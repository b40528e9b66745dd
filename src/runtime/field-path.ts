/**
 * Field paths as written in `.seam` files (`goal.statement`, `decisions[].rationale`), split into
 * segments: a name steps into an object, `[]` steps into every item of an array (the `path`
 * rule of the language's grammar, `grammar/`).
 */

/** The segment that stands for "every item of the array". */
export const EACH_ITEM = "[]";

/**
 * Splits a path into segments: `decisions[].rationale` -> `["decisions", "[]", "rationale"]`.
 *
 * @param text - a path in the grammar `ID ("." ID | "[]")*`
 * @returns the segments, or `undefined` when `text` is not such a path
 */
export function parseFieldPath(text: string): string[] | undefined {
  const segments: string[] = [];
  const token = /\.?([A-Za-z_][A-Za-z0-9_-]*)|(\[\])/y;
  let at = 0;
  while (at < text.length) {
    token.lastIndex = at;
    const match = token.exec(text);
    if (match === null) return undefined;
    const name = match[1];
    // A name needs a dot before it, except the first one, which must have none.
    if (name !== undefined && match[0].startsWith(".") !== segments.length > 0) return undefined;
    segments.push(name ?? EACH_ITEM);
    at = token.lastIndex;
  }
  return segments.length > 0 && segments[0] !== EACH_ITEM ? segments : undefined;
}
