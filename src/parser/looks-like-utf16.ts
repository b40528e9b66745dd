/**
 * Spotting UTF-16 text read as UTF-8. Such a file (saved by some Windows editors, without a byte
 * order mark) is valid UTF-8 when its characters are ASCII, but every other code unit is U+0000:
 * the lexer would report each one as an unexpected character, thousands of errors for what is
 * one problem with how the file was saved.
 */

/** How much of the text is looked at: enough to tell, cheap on any file. */
const SAMPLE_LENGTH = 1024;

/**
 * True when the start of `text` looks like UTF-16 text decoded as UTF-8: U+0000 at half or more
 * of the even offsets (big-endian) or of the odd ones (little-endian) of the first 1,024 code
 * units, and at under a quarter of the others (a run of NULs alone is not text). Never throws.
 */
export function looksLikeUtf16(text: string): boolean {
  const length = Math.min(text.length, SAMPLE_LENGTH);
  const half = length >> 1;
  if (half === 0) return false;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < length; i++) {
    if (text.charCodeAt(i) !== 0) continue;
    if ((i & 1) === 0) even++;
    else odd++;
  }
  const heavy = Math.max(even, odd);
  const light = Math.min(even, odd);
  return heavy * 2 >= half && light * 4 < half;
}
