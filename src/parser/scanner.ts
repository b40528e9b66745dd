/**
 * The Seam lexer's core: one pass of `charCodeAt` over the text, no regular expression per token,
 * tokens stored as numbers in typed arrays (kind, start, end) rather than one object each.
 *
 * Why not Chevrotain's `Lexer`: its constructor analyses the token regexes on every start (about
 * 10 ms of a `seam check` run that takes 60-100 ms in all), and at scale it made one object per
 * token plus line/column tracking: 160-250 ms and a large share of the GC work for the 306 000
 * tokens of a 10^4-agent graph (2 MB), where this scan takes about 20 ms (measured on Node 20).
 * The token patterns in
 * `tokens.ts` stay the specification: `test/parser/scanner.property.test.ts` checks that this
 * scanner and a Chevrotain `Lexer` built from them agree on random text.
 */

// Token kinds. `kindNames[kind]` is the name of the matching token type in `tokens.ts`.
export const K_IDENTIFIER = 0;
// Keywords are 1..24, in the order of `keywordWords`. The three roles, outcomes and edge kinds
// are consecutive kinds each: the direct parser tests them as ranges.
export const K_SEAM = 1;
export const K_GRAPH = 2;
export const K_ENVELOPE = 3;
export const K_ENTRY = 4;
export const K_HOP_LIMIT = 5;
export const K_AUTO = 6;
export const K_ON_HOP_LIMIT = 7;
export const K_LOOP_SIGNATURE = 8;
export const K_AGENT = 9;
export const K_SUPERVISOR = 10;
export const K_WORKER = 11;
export const K_PEER = 12;
export const K_TERMINAL = 13;
export const K_VERSION = 14;
export const K_COMPLETE = 15;
export const K_FAILED = 16;
export const K_ESCALATE = 17;
export const K_CONTRACT = 18;
export const K_DELEGATE = 19;
export const K_RETURN = 20;
export const K_TRANSFER = 21;
export const K_OBSERVE = 22;
export const K_REQUIRE = 23;
export const K_MAX_ROUNDS = 24;
export const K_VERSION_NUMBER = 25;
export const K_INTEGER = 26;
export const K_STRING = 27;
/** A string with a bad escape or no closing quote; the parser takes it as a string. */
export const K_MALFORMED_STRING = 28;
export const K_ARROW = 29;
export const K_LCURLY = 30;
export const K_RCURLY = 31;
export const K_COMMA = 32;
export const K_COLON = 33;
export const K_DOT = 34;
export const K_BRACKETS = 35;
/** `-` and digits: the parser takes it as an integer, the tree builders report it. */
export const K_NEGATIVE_INTEGER = 36;
/** Three or more dotted parts (`1.3.0`): the parser takes it as a version, the tree builders report it. */
export const K_LONG_VERSION = 37;

/** The keywords; the kind of `keywordWords[i]` is `i + 1`. */
export const keywordWords: readonly string[] = [
  "seam", "graph", "envelope", "entry", "hop_limit", "auto", "on_hop_limit", "loop_signature",
  "agent", "supervisor", "worker", "peer", "terminal", "version", "complete", "failed", "escalate",
  "contract", "delegate", "return", "transfer", "observe", "require", "max_rounds",
];

/** Token type names by kind (the names given to `createToken` in `tokens.ts`). */
export const kindNames: readonly string[] = [
  "Identifier",
  ...keywordWords.map((word) => `Kw_${word}`),
  "VersionNumber", "Integer", "StringLiteral", "MalformedString", "Arrow", "LCurly", "RCurly",
  "Comma", "Colon", "Dot", "Brackets", "NegativeInteger", "LongVersion",
];

/** True for the kinds that are keywords. */
export function isKeyword(kind: number): boolean {
  return kind >= K_SEAM && kind <= K_MAX_ROUNDS;
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
}

// Keyword candidates by first character, so an identifier is compared only with the few keywords
// that start like it (and `startsWith` at an offset needs no substring).
const keywordsByFirst: (readonly number[])[] = [];
keywordWords.forEach((word, i) => {
  const first = word.charCodeAt(0);
  keywordsByFirst[first] = [...(keywordsByFirst[first] ?? []), i + 1];
});

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isIdStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isIdPart = (c: number): boolean => isIdStart(c) || isDigit(c);
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
    } else if (isIdStart(c)) {
      i = identifierEnd(text, i + 1);
      kind = keywordKind(text, start, i - start, c);
    } else if (isDigit(c)) {
      i++;
      while (isDigit(text.charCodeAt(i))) i++;
      kind = K_INTEGER;
      if (text.charCodeAt(i) === 46 /* . */ && isDigit(text.charCodeAt(i + 1))) {
        i += 2;
        while (isDigit(text.charCodeAt(i))) i++;
        kind = K_VERSION_NUMBER;
        while (text.charCodeAt(i) === 46 && isDigit(text.charCodeAt(i + 1))) {
          i += 2;
          while (isDigit(text.charCodeAt(i))) i++;
          kind = K_LONG_VERSION;
        }
      }
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
    } else if (c === 45 && isDigit(next)) {
      i += 2;
      while (isDigit(text.charCodeAt(i))) i++;
      kind = K_NEGATIVE_INTEGER;
    } else if (c === 91 /* [ */ && next === 93 /* ] */) {
      i += 2;
      kind = K_BRACKETS;
    } else if (c === 47 /* / */ && next === 47) {
      i += 2;
      while (i < length && !isLineBreak(text.charCodeAt(i))) i++;
    } else if (c === 47 && next === 42 /* * */) {
      const close = text.indexOf("*/", i + 2);
      if (close < 0) {
        if (errorStart >= 0) unexpected.push([errorStart, start - errorStart]);
        errorStart = -1;
        unterminatedComment = start;
        break;
      }
      i = close + 2;
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
  return { count, kinds, starts, ends, unexpected, unterminatedComment, malformedStrings };
}

function isLineBreak(c: number): boolean {
  return c === 10 || c === 13;
}

/** End of `[A-Za-z0-9_]|-(?!>)` repeated from `i`: a hyphen before `>` is left for the arrow. */
function identifierEnd(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (isIdPart(c) || (c === 45 && text.charCodeAt(i + 1) !== 62)) i++;
    else return i;
  }
}

/** The keyword kind of the word at `[start, start + length)`, or {@link K_IDENTIFIER}. */
function keywordKind(text: string, start: number, length: number, first: number): number {
  const candidates = keywordsByFirst[first];
  if (candidates === undefined) return K_IDENTIFIER;
  for (const kind of candidates) {
    const word = keywordWords[kind - 1] as string;
    if (word.length === length && text.startsWith(word, start)) return kind;
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
