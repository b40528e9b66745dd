/**
 * The one size limit on a `.seam` source: the CLI refuses a larger file before reading it, and
 * the language server analyses no larger document. A handoff graph is a few kilobytes; the
 * limit keeps the work an attacker can ask of a checker bounded.
 */

/** Largest source Seam checks, in UTF-8 bytes (10 MiB). */
export const MAX_SOURCE_BYTES = 10 * 1024 * 1024;

/**
 * The UTF-8 length of `text` in bytes when it is over `maxBytes`, else `undefined`. A text whose
 * UTF-16 length settles it (a code unit is at most three UTF-8 bytes) is not measured, so an
 * ordinary document costs nothing on each keystroke. A lone surrogate counts as the three bytes
 * of the U+FFFD it would be written as.
 *
 * @param maxBytes - the limit (default {@link MAX_SOURCE_BYTES})
 */
export function sizeOverLimit(text: string, maxBytes = MAX_SOURCE_BYTES): number | undefined {
  if (text.length * 3 <= maxBytes) return undefined;
  const bytes = Buffer.byteLength(text, "utf8");
  return bytes > maxBytes ? bytes : undefined;
}

/**
 * What is wrong with a source of `bytes` bytes: `is 10.4 MB, over the 10 MB limit`; in bytes
 * when rounding would make the size read like the limit (`is 10485761 bytes, over the limit of
 * 10485760 bytes`) or the limit is under 1 MB.
 */
export function sizeProblem(bytes: number, maxBytes: number): string {
  const size = megabytes(bytes);
  const limit = megabytes(maxBytes);
  if (size !== undefined && limit !== undefined && size !== limit) return `is ${size}, over the ${limit} limit`;
  return `is ${bytes} bytes, over the limit of ${maxBytes} bytes`;
}

/** `10 MB`, `10.4 MB` (MiB, one decimal at most); undefined under 1 MB. */
export function megabytes(bytes: number): string | undefined {
  const mb = bytes / (1024 * 1024);
  return mb < 1 ? undefined : `${Number(mb.toFixed(1))} MB`;
}
