/**
 * The Seam lexer's core: one pass of `charCodeAt` over the text, no regular expression per token,
 * tokens stored as numbers in typed arrays (kind, start, end) rather than one object each.
 *
 * Why not Chevrotain's `Lexer`: its constructor analyses the token regexes on every start (about
 * 10 ms of a `seam check` run that takes 60-100 ms in all), and at scale it made one object per
 * token plus line/column tracking: 160-250 ms and a large share of the GC work for the 306 000
 * tokens of a 10^4-agent graph (2 MB), where this scan takes about 20 ms (measured on Node 20).
 * The token patterns in
 * `spec/tokens.ts` stay the specification: `test/parser/scanner.property.test.ts` checks that this
 * scanner and a Chevrotain `Lexer` built from them agree on random text.
 */

import { INVISIBLE } from "../core/invisible.js";
import { KEYWORDS } from "../core/vocabulary.js";

// Token kinds: the fixed kinds below, then one kind per keyword (`keywordKind(word)`), in the
// order of the vocabulary's KEYWORDS. `kindNames[kind]` is the name of the matching token type
// of the grammar specification (`spec/tokens.ts`).
export const K_IDENTIFIER = 0;
export const K_VERSION_NUMBER = 1;
export const K_INTEGER = 2;
export const K_STRING = 3;
/** A string with a bad escape or no closing quote; the parser takes it as a string. */
export const K_MALFORMED_STRING = 4;
export const K_ARROW = 5;
export const K_LCURLY = 6;
export const K_RCURLY = 7;
export const K_COMMA = 8;
export const K_COLON = 9;
export const K_DOT = 10;
export const K_BRACKETS = 11;
/** `-` and a number (`-1`, `-0.1`): the parser takes it as an integer and reports it. */
export const K_NEGATIVE_NUMBER = 12;
/** Three or more dotted parts (`1.3.0`): the parser takes it as a version and reports it. */
export const K_LONG_VERSION = 13;
/** A comparison of a guard: `<`, `<=`, `>` or `>=`. */
export const K_COMPARISON = 14;
/**
 * A number with an exponent (`1e-3`) or without a digit before its point (`.5`): the parser takes
 * it as an integer and reports how to write it.
 */
export const K_MALFORMED_NUMBER = 15;
/** The kind of the first keyword; keyword `KEYWORDS[i]` has kind `KEYWORD_BASE + i`. */
export const KEYWORD_BASE = 16;

/**
 * How far past the end of a step (a token, a comment, a run of spaces or unexpected characters)
 * the scanner may read to decide where the step ends: `1e-x` is read to the `x` before `1` is
 * known to be an integer and not a number with an exponent. An edit this close after a token
 * can change how it is read, which a rescan around an edit must allow for.
 */
export const SCAN_LOOKAHEAD = 2;

/** The keywords; the kind of `keywordWords[i]` is `KEYWORD_BASE + i`. */
export const keywordWords: readonly string[] = KEYWORDS;

/**
 * The token kind of a keyword.
 *
 * @throws Error when `word` is not a keyword (a bug in Seam).
 */
export function keywordKind(word: string): number {
  const index = keywordWords.indexOf(word);
  if (index < 0) throw new Error(`internal: '${word}' is not a keyword`);
  return KEYWORD_BASE + index;
}

/** The keyword spelt by a token kind, or undefined for other kinds. */
export function keywordOfKind(kind: number): string | undefined {
  return kind >= KEYWORD_BASE ? keywordWords[kind - KEYWORD_BASE] : undefined;
}

/** Token type names by kind (the names given to `createToken` in `spec/tokens.ts`). */
export const kindNames: readonly string[] = [
  "Identifier", "VersionNumber", "Integer", "StringLiteral", "MalformedString", "Arrow", "LCurly", "RCurly",
  "Comma", "Colon", "Dot", "Brackets", "NegativeNumber", "LongVersion", "Comparison", "MalformedNumber",
  ...keywordWords.map((word) => `Kw_${word}`),
];

/** True for the kinds that are keywords. */
export function isKeyword(kind: number): boolean {
  return kind >= KEYWORD_BASE;
}

/** The tokens and lexical errors of a text. Offsets are UTF-16 code units. */
export interface ScanResult {
  /** Number of tokens; the arrays below may be longer. */
  readonly count: number;
  readonly kinds: Uint8Array;
  /** Offset of each token's first code unit. */
  readonly starts: Int32Array;
  /** Offset one past each token's last code unit. */
  readonly ends: Int32Array;
  /** Runs of characters that start no token: `[offset, length]` pairs, in text order. */
  readonly unexpected: readonly (readonly [number, number])[];
  /** Offset of a `/*` never closed (it swallows the rest of the text), else -1. */
  readonly unterminatedComment: number;
  /** Indexes of the {@link K_MALFORMED_STRING} tokens, whose problems the caller reports. */
  readonly malformedStrings: readonly number[];
  /** Comments as `[start, end)` offset pairs, in text order (an unterminated one is not listed). */
  readonly comments: readonly (readonly [number, number])[];
}

// Keyword candidates by first character, so an identifier is compared only with the few keywords
// that start like it (and `startsWith` at an offset needs no substring).
const keywordsByFirst: (readonly number[])[] = [];
keywordWords.forEach((word, i) => {
  const first = word.charCodeAt(0);
  keywordsByFirst[first] = [...(keywordsByFirst[first] ?? []), KEYWORD_BASE + i];
});

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isAsciiIdStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isAsciiIdPart = (c: number): boolean => isAsciiIdStart(c) || isDigit(c);
// Beyond ASCII, names follow Unicode UAX #31 identifiers: ID_Start, then ID_Continue, with no
// invisible character (Default_Ignorable_Code_Point, `core/invisible.ts`): the joiners
// U+200C/U+200D, variation selectors (U+FE00, U+E0100), U+034F, the Hangul filler U+3164.
// `bill\uFE00` would look like `bill` and name another agent, so the character ends the name and
// is reported (describe-unexpected.ts says why). Only the non-ASCII path tests this. `$` is not
// part of the language.
const unicodeIdStart = new RegExp(`^(?!${INVISIBLE.source})\\p{ID_Start}$`, "u");
const unicodeIdPart = new RegExp(`^(?!${INVISIBLE.source})\\p{ID_Continue}$`, "u");

/** Length in code units (1 or 2) of the name-starting character at `i`, or 0. */
function idStartLength(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return isAsciiIdStart(c) ? 1 : 0;
  const point = String.fromCodePoint(text.codePointAt(i) as number);
  return unicodeIdStart.test(point) ? point.length : 0;
}

/** Length in code units (1 or 2) of the name character at `i`, or 0. */
function idPartLength(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return isAsciiIdPart(c) ? 1 : 0;
  if (Number.isNaN(c)) return 0;
  const point = String.fromCodePoint(text.codePointAt(i) as number);
  return unicodeIdPart.test(point) ? point.length : 0;
}
const isHex = (c: number): boolean => isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
/** `[ \t\f\v\r\n]`, the whitespace of the language (not other Unicode spaces). */
const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/**
 * Tokenizes `text`. A byte order mark at offset 0 is skipped; comments and whitespace produce no
 * token. Characters that start no token are collected into runs (reported by the caller); an
 * unterminated block comment ends the scan. Never throws.
 */
export function scan(text: string): ScanResult {
  const length = text.length;
  let capacity = Math.max(16, length >> 3);
  let kinds = new Uint8Array(capacity);
  let starts = new Int32Array(capacity);
  let ends = new Int32Array(capacity);
  let count = 0;
  const unexpected: [number, number][] = [];
  const malformedStrings: number[] = [];
  const comments: [number, number][] = [];
  let unterminatedComment = -1;
  let errorStart = -1;

  const push = (kind: number, start: number, end: number): void => {
    if (count === capacity) {
      capacity *= 2;
      const k = new Uint8Array(capacity);
      k.set(kinds);
      kinds = k;
      const s = new Int32Array(capacity);
      s.set(starts);
      starts = s;
      const e = new Int32Array(capacity);
      e.set(ends);
      ends = e;
    }
    kinds[count] = kind;
    starts[count] = start;
    ends[count] = end;
    count++;
  };

  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    const start = i;
    let kind = -1;
    if (isSpace(c)) {
      i++;
      while (i < length && isSpace(text.charCodeAt(i))) i++;
    } else if (isAsciiIdStart(c) || (c >= 128 && idStartLength(text, i) > 0)) {
      i = identifierEnd(text, i + (c < 128 ? 1 : idStartLength(text, i)));
      kind = wordKind(text, start, i - start, c);
    } else if (isDigit(c) || (c === 46 /* . */ && isDigit(next)) || (c === 45 /* - */ && (isDigit(next) || (next === 46 && isDigit(text.charCodeAt(i + 2)))))) {
      const number = numberAt(text, i);
      i = number.end;
      kind = number.kind;
    } else if (c === 34 /* " */) {
      const end = stringEnd(text, i);
      i = end < 0 ? -end : end;
      kind = K_STRING;
      if (end < 0) {
        kind = K_MALFORMED_STRING;
        malformedStrings.push(count);
      }
    } else if (c === 123) {
      i++;
      kind = K_LCURLY;
    } else if (c === 125) {
      i++;
      kind = K_RCURLY;
    } else if (c === 44) {
      i++;
      kind = K_COMMA;
    } else if (c === 58) {
      i++;
      kind = K_COLON;
    } else if (c === 46) {
      i++;
      kind = K_DOT;
    } else if (c === 45 /* - */ && next === 62 /* > */) {
      i += 2;
      kind = K_ARROW;
    } else if (c === 60 /* < */ || c === 62 /* > */) {
      i += next === 61 /* = */ ? 2 : 1;
      kind = K_COMPARISON;
    } else if (c === 91 /* [ */ && next === 93 /* ] */) {
      i += 2;
      kind = K_BRACKETS;
    } else if (c === 47 /* / */ && next === 47) {
      i += 2;
      while (i < length && !isLineBreak(text.charCodeAt(i))) i++;
      comments.push([start, i]);
    } else if (c === 47 && next === 42 /* * */) {
      const close = text.indexOf("*/", i + 2);
      if (close < 0) {
        if (errorStart >= 0) unexpected.push([errorStart, start - errorStart]);
        errorStart = -1;
        unterminatedComment = start;
        break;
      }
      i = close + 2;
      comments.push([start, i]);
    } else {
      // No token starts here: Chevrotain's lexer drops one character at a time until one does,
      // and reports the run as one error.
      if (errorStart < 0) errorStart = i;
      i++;
      continue;
    }
    if (errorStart >= 0) {
      unexpected.push([errorStart, start - errorStart]);
      errorStart = -1;
    }
    if (kind >= 0) push(kind, start, i);
  }
  if (errorStart >= 0) unexpected.push([errorStart, length - errorStart]);
  return { count, kinds, starts, ends, unexpected, unterminatedComment, malformedStrings, comments };
}

/** End of the dotted digit runs from `i` (`.5.6`), each a `.` and digits: `i` when there are none. */
function dottedPartsEnd(text: string, i: number): number {
  while (text.charCodeAt(i) === 46 && isDigit(text.charCodeAt(i + 1))) {
    i += 2;
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

/**
 * The number token starting at `i`, where a digit, a `.` and a digit, or a `-` and either starts
 * (the patterns of `spec/tokens.ts`): an integer, a version of two parts or more, a negative
 * number, or a malformed number (an exponent after any of them, or no digit before the point).
 */
function numberAt(text: string, i: number): { end: number; kind: number } {
  const negative = text.charCodeAt(i) === 45;
  if (negative) i++;
  let kind: number;
  if (text.charCodeAt(i) === 46) {
    i = dottedPartsEnd(text, i);
    kind = K_MALFORMED_NUMBER;
  } else {
    while (isDigit(text.charCodeAt(i))) i++;
    const parts = i;
    i = dottedPartsEnd(text, i);
    const dots = countDots(text, parts, i);
    kind = negative ? K_NEGATIVE_NUMBER : dots === 0 ? K_INTEGER : dots === 1 ? K_VERSION_NUMBER : K_LONG_VERSION;
  }
  // An exponent: `e` or `E`, an optional sign, then digits (the lookahead of SCAN_LOOKAHEAD).
  const e = text.charCodeAt(i);
  if (e === 101 || e === 69) {
    const sign = text.charCodeAt(i + 1);
    const digits = sign === 43 /* + */ || sign === 45 /* - */ ? i + 2 : i + 1;
    if (isDigit(text.charCodeAt(digits))) {
      i = digits + 1;
      while (isDigit(text.charCodeAt(i))) i++;
      kind = K_MALFORMED_NUMBER;
    }
  }
  return { end: i, kind };
}

/** The `.` characters in `[from, to)`. */
function countDots(text: string, from: number, to: number): number {
  let dots = 0;
  for (let j = from; j < to; j++) if (text.charCodeAt(j) === 46) dots++;
  return dots;
}

function isLineBreak(c: number): boolean {
  return c === 10 || c === 13;
}

/** End of (ID_Continue | `-` not before `>`) repeated from `i`: a hyphen before `>` is left for the arrow. */
function identifierEnd(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    // ASCII first, inline: nearly every name is ASCII, and this loop is the scanner's hottest.
    if (isAsciiIdPart(c)) {
      i++;
    } else if (c === 45 /* - */) {
      if (text.charCodeAt(i + 1) === 62 /* > */) return i;
      i++;
    } else if (c < 128 || Number.isNaN(c)) {
      return i;
    } else {
      const part = idPartLength(text, i);
      if (part === 0) return i;
      i += part;
    }
  }
}

/** The keyword kind of the word at `[start, start + length)`, or {@link K_IDENTIFIER}. */
function wordKind(text: string, start: number, length: number, first: number): number {
  const candidates = keywordsByFirst[first];
  if (candidates === undefined) return K_IDENTIFIER;
  // Code unit by code unit, from the second (the first is `first`): `text.startsWith(word, start)`
  // on the 21 MB text of the bench's largest graph was the scan's hottest line in a CPU profile.
  for (let c = 0; c < candidates.length; c++) {
    const kind = candidates[c] as number;
    const word = keywordWords[kind - KEYWORD_BASE] as string;
    if (word.length !== length) continue;
    let j = 1;
    while (j < length && word.charCodeAt(j) === text.charCodeAt(start + j)) j++;
    if (j === length) return kind;
  }
  return K_IDENTIFIER;
}

/**
 * End offset of the string literal opening at `start`: positive for a well-formed literal,
 * negated for a malformed one (a bad escape, or no closing quote before the line ends).
 */
function stringEnd(text: string, start: number): number {
  let wellFormed = true;
  let i = start + 1;
  for (;;) {
    const c = text.charCodeAt(i);
    if (Number.isNaN(c) || isLineBreak(c)) return -i;
    if (c === 34) return wellFormed ? i + 1 : -(i + 1);
    if (c !== 92 /* \ */) {
      i++;
      continue;
    }
    const escaped = text.charCodeAt(i + 1);
    if (escaped === 34 || escaped === 92 || escaped === 110 /* n */ || escaped === 116 /* t */) {
      i += 2;
    } else if (
      escaped === 117 /* u */ &&
      isHex(text.charCodeAt(i + 2)) &&
      isHex(text.charCodeAt(i + 3)) &&
      isHex(text.charCodeAt(i + 4)) &&
      isHex(text.charCodeAt(i + 5))
    ) {
      i += 6;
    } else {
      wellFormed = false;
      // The malformed pattern takes a backslash and the character after it, unless that is a
      // line break (or the end of the text).
      i += Number.isNaN(escaped) || isLineBreak(escaped) ? 1 : 2;
    }
  }
}
