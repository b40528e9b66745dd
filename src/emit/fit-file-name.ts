/**
 * The one rule that keeps `seam compile`'s file names within the 255 bytes most file systems
 * allow a name (ext4, APFS, NTFS count UTF-8 bytes or UTF-16 units; 255 bytes is the tightest).
 * Names are built from graph and agent ids, which have no length limit, so a valid graph could
 * otherwise not be compiled.
 */
import { createHash } from "node:crypto";

/** The longest file name written, in UTF-8 bytes. */
export const MAX_FILE_NAME_BYTES = 255;

/** Hex digits of the SHA-256 of the full stem kept in a shortened name (48 bits: no clash in practice). */
const HASH_DIGITS = 12;

/**
 * `stem` unchanged when `stem + extension` fits in {@link MAX_FILE_NAME_BYTES} UTF-8 bytes; else
 * the longest prefix of `stem` (whole code points) that fits with `_`, the first 12 hex digits
 * of the SHA-256 of the whole stem, and `extension`. The same stem always gives the same
 * result, a prefix keeps it readable, and the hash keeps stems that share a long prefix apart.
 * The result stays a Python identifier when `stem` is one (`_` and hex digits only are added).
 *
 * @param stem - the part of the name that may be shortened
 * @param extension - what follows it, kept whole (`.schema.json`, `_validators.py`); for names
 *   that must share a stem (`X.mjs`, `X.d.mts`), give the longest
 */
export function fitFileStem(stem: string, extension: string): string {
  const bytes = (text: string): number => Buffer.byteLength(text, "utf8");
  if (bytes(stem) + bytes(extension) <= MAX_FILE_NAME_BYTES) return stem;
  const tail = `_${createHash("sha256").update(stem, "utf8").digest("hex").slice(0, HASH_DIGITS)}`;
  let room = MAX_FILE_NAME_BYTES - bytes(extension) - tail.length;
  let prefix = "";
  for (const char of stem) {
    room -= bytes(char);
    if (room < 0) break;
    prefix += char;
  }
  return `${prefix}${tail}`;
}
