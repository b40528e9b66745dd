/**
 * Strict UTF-8 decoding that says where the bytes stop being UTF-8 (RFC 3629, section 4), for a
 * `file:line:column` error: `TextDecoder` with `fatal` only says that they do.
 */
import { createSourceFile, getShownLineAndColumn, type LineAndColumn } from "./source-file.js";

/** Decoded text, or where and why the bytes are not UTF-8. */
export type Utf8Read = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly at: LineAndColumn; readonly problem: string };

const STRICT = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decodes `bytes` as UTF-8, a leading byte order mark kept. On bad bytes: the 1-based line and
 * column (UTF-16 code units, as in every other diagnostic) of the first byte that starts no
 * well-formed sequence, and that byte's value.
 */
export function decodeUtf8(bytes: Uint8Array): Utf8Read {
  try {
    return { ok: true, text: STRICT.decode(bytes) };
  } catch {
    const { before, problem } = utf8Fault(bytes);
    return { ok: false, at: getShownLineAndColumn(createSourceFile("", before), before.length), problem };
  }
}

/**
 * Where `bytes`, which are not UTF-8, stop being UTF-8: the text before the first bad byte, and
 * the problem naming that byte's value.
 */
export function utf8Fault(bytes: Uint8Array): { readonly before: string; readonly problem: string } {
  const offset = firstInvalidUtf8(bytes);
  const byte = (bytes[offset] as number).toString(16).toUpperCase().padStart(2, "0");
  return { before: STRICT.decode(bytes.subarray(0, offset)), problem: `is not valid UTF-8 text from here on (byte 0x${byte})` };
}

/** The offset of the first byte of `bytes` that starts no well-formed UTF-8 sequence. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead < 0x80) length = 1;
    else if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0; // no overlong forms
      if (lead === 0xed) high = 0x9f; // no surrogates
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f; // nothing past U+10FFFF
    } else return i;
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < (k === 1 ? low : 0x80) || next > (k === 1 ? high : 0xbf)) return i;
    }
    i += length;
  }
  return bytes.length;
}
