/** Reading JSON values of unknown shape (what a caller or the wire gave), without coercing them. */

/** True for a JSON object: an object that is neither null nor an array (RFC 8259, section 4). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value[key]` when `value` is a JSON object ({@link isJsonObject}), else undefined. */
export function fieldOf(value: unknown, key: string): unknown {
  return isJsonObject(value) ? value[key] : undefined;
}
