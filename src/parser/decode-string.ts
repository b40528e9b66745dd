/**
 * Decodes the text of a Seam string literal: `\" \\ \n \t \uXXXX` (docs/language.md).
 */

/** A problem in a string literal; `offset` is relative to the start of the literal (its `"`). */
export interface StringProblem {
  readonly offset: number;
  readonly length: number;
  readonly message: string;
}

/** The decoded value of a string literal and whatever was wrong with it. */
export interface DecodedString {
  readonly value: string;
  /** Empty for a well-formed literal. */
  readonly problems: readonly StringProblem[];
}

const simpleEscapes: Readonly<Record<string, string>> = { '"': '"', "\\": "\\", n: "\n", t: "\t" };

/**
 * Decodes `image`, the literal as written with its quotes. Lenient: a bad escape is kept as
 * written and reported, a missing closing quote is reported, so a value is always returned.
 * Never throws.
 */
export function decodeString(image: string): DecodedString {
  const problems: StringProblem[] = [];
  const closed = image.length >= 2 && image.endsWith('"') && !isEscapedAt(image, image.length - 1);
  const bodyEnd = closed ? image.length - 1 : image.length;
  // Most literals hold no escape: one slice instead of a character-by-character copy.
  if (closed && !image.includes("\\")) return { value: image.slice(1, bodyEnd), problems: [] };
  let value = "";
  let i = 1;
  while (i < bodyEnd) {
    const c = image[i] as string;
    if (c !== "\\") {
      value += c;
      i++;
      continue;
    }
    const next = image[i + 1];
    const simple = next === undefined ? undefined : simpleEscapes[next];
    if (simple !== undefined) {
      value += simple;
      i += 2;
    } else if (next === "u" && /^[0-9a-fA-F]{4}$/.test(image.slice(i + 2, i + 6))) {
      value += String.fromCharCode(Number.parseInt(image.slice(i + 2, i + 6), 16));
      i += 6;
    } else {
      const shown = next === undefined ? "\\" : `\\${next}`;
      problems.push({
        offset: i,
        length: shown.length,
        message: `invalid escape '${shown}' in string: use \\", \\\\, \\n, \\t or \\uXXXX`,
      });
      value += shown;
      i += shown.length;
    }
  }
  if (!closed) {
    problems.push({ offset: 0, length: image.length, message: "unterminated string: close it with '\"' on the same line" });
  }
  return { value, problems };
}

/** True when the character at `index` is preceded by an odd number of backslashes. */
function isEscapedAt(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 1;
}
