/**
 * The tokens of one version of a document for the editor features, made from the tokens of the
 * version before when there is one, so that a keystroke costs a scan of the few tokens around the
 * edit rather than of the whole document (a 1,000-agent graph has 31,000 tokens).
 *
 * Why reuse is exact: the scanner (`parser/scanner.ts`) goes from one token boundary to the next,
 * and what it reads from a boundary depends only on the text from there on; a step that ends at
 * offset `j` reads at most the code unit at `j + SCAN_LOOKAHEAD` (its lookahead). So the new
 * text's tokens start as the old ones up to a token that begins more than that many code units
 * before the edit; from there the
 * new text is scanned until one of its tokens begins after the edit where an old token began
 * (moved by the change in length), and from that token on the old tokens are the new ones, moved.
 * A property test compares {@link relex} with {@link lex} on random edits.
 */
import { commonPrefix, commonSuffix } from "../parser/rescan.js";
import * as k from "../parser/scanner.js";

/** What a token is, for semantic tokens and for reading the context of a completion. */
export type TokenKind = "keyword" | "identifier" | "string" | "number" | "arrow" | "punctuation";

/** One token of the text: its kind, its UTF-16 range and, for keywords and punctuation, its text. */
export interface Token {
  readonly kind: TokenKind;
  readonly start: number;
  readonly end: number;
  /** The keyword or punctuation as written (`agent`, `{`, `[]`); the empty string for the other kinds. */
  readonly text: string;
}

/** The tokens of a text, in source order, with the scanner's kind of each. */
export interface Lexed {
  readonly text: string;
  /** Every token in source order; comments and whitespace have none. */
  readonly tokens: readonly Token[];
  /** The scanner kind (`parser/scanner.ts`: `K_*`, keywords from `KEYWORD_BASE`) of each token, by index. */
  readonly kinds: Uint8Array;
}

/** How far past the edit the first rescan reaches (UTF-16 code units); each further one reaches four times as far. */
const FIRST_WINDOW = 256;

/** The tokens of `text`, scanned in full. */
export function lex(text: string): Lexed {
  const scanned = k.scan(text);
  return { text, tokens: tokensOf(text, scanned, 0, scanned.count, 0), kinds: scanned.kinds.slice(0, scanned.count) };
}

/**
 * The tokens of `text`, from those of an earlier text of the same document (see the file
 * comment); equal to `lex(text)`. Consumes `previous` when the text changed: its tokens after
 * the edit become the result's, moved in place, so read the result, not `previous`, from then on.
 */
export function relex(previous: Lexed, text: string): Lexed {
  const before = previous.text;
  if (before === text) return previous;
  const from = commonPrefix(before, text);
  const suffix = commonSuffix(before, text, from);
  const oldTo = before.length - suffix;
  const newTo = text.length - suffix;
  const delta = newTo - oldTo;
  const old = previous.tokens;
  // The last old token that begins more than SCAN_LOOKAHEAD code units before the edit: every
  // step of the scanner before it read the same text in both versions, so the new scan reaches it too.
  const kept = firstTokenFrom(old, from - k.SCAN_LOOKAHEAD) - 1;
  if (kept <= 0) return lex(text);
  const restart = (old[kept] as Token).start;
  const firstAfter = firstTokenFrom(old, oldTo);
  for (let end = Math.min(text.length, newTo + FIRST_WINDOW); ; end = Math.min(text.length, newTo + (end - newTo) * 4)) {
    const scanned = k.scan(text.slice(restart, end));
    const whole = end === text.length;
    // A window token is as the full scan has it when the steps before it read only inside the
    // window: it begins more than SCAN_LOOKAHEAD code units before the window's end, or the window is the rest of the text.
    let m = firstAfter;
    for (let t = 0; t < scanned.count; t++) {
      const start = restart + (scanned.starts[t] as number);
      if (!whole && start + k.SCAN_LOOKAHEAD + 1 > end) break;
      if (start < newTo) continue;
      while (m < old.length && (old[m] as Token).start < start - delta) m++;
      if (m < old.length && (old[m] as Token).start === start - delta) return joined(previous, kept, text, scanned, restart, t, m, delta);
    }
    if (whole) return joined(previous, kept, text, scanned, restart, scanned.count, old.length, delta);
  }
}

/** Old tokens `[0, kept)`, window tokens `[0, count)` (scanned from `restart`), then old tokens from `resume` moved by `delta`. */
function joined(previous: Lexed, kept: number, text: string, scanned: k.ScanResult, restart: number, count: number, resume: number, delta: number): Lexed {
  const old = previous.tokens;
  const rescanned = tokensOf(text, scanned, 0, count, restart);
  // Made at its final length: growing a 30,000-token array by `push` copies it again.
  const tokens = new Array<Token>(kept + count + old.length - resume);
  for (let i = 0; i < kept; i++) tokens[i] = old[i] as Token;
  for (let i = 0; i < count; i++) tokens[kept + i] = rescanned[i] as Token;
  // Moved in place, not copied: the previous version's tokens are superseded by these (the front
  // end makes each version's tokens once, from the last ones made), and a copy of the 1.5 * 10^5
  // tokens after a keystroke in a 10^4-agent document was garbage that the next check collected.
  for (let i = resume, at = kept + count; i < old.length; i++, at++) {
    const token = old[i] as { start: number; end: number };
    token.start += delta;
    token.end += delta;
    tokens[at] = token as Token;
  }
  const kinds = new Uint8Array(tokens.length);
  kinds.set(previous.kinds.subarray(0, kept));
  kinds.set(scanned.kinds.subarray(0, count), kept);
  kinds.set(previous.kinds.subarray(resume), kept + count);
  return { text, tokens, kinds };
}

const punctuation: Readonly<Record<number, string>> = {
  [k.K_LCURLY]: "{",
  [k.K_RCURLY]: "}",
  [k.K_COMMA]: ",",
  [k.K_COLON]: ":",
  [k.K_DOT]: ".",
  [k.K_BRACKETS]: "[]",
};

/** Tokens `[first, last)` of a scan, their offsets moved by `shift` (the offset the scanned text began at). */
function tokensOf(text: string, scanned: k.ScanResult, first: number, last: number, shift: number): Token[] {
  const tokens: Token[] = [];
  for (let i = first; i < last; i++) {
    const kind = scanned.kinds[i] as number;
    const start = (scanned.starts[i] as number) + shift;
    const end = (scanned.ends[i] as number) + shift;
    const keyword = k.keywordOfKind(kind);
    if (keyword !== undefined) tokens.push({ kind: "keyword", start, end, text: keyword });
    else if (kind === k.K_IDENTIFIER) tokens.push({ kind: "identifier", start, end, text: "" });
    else if (kind === k.K_STRING || kind === k.K_MALFORMED_STRING) tokens.push({ kind: "string", start, end, text: "" });
    else if (kind === k.K_ARROW) tokens.push({ kind: "arrow", start, end, text: "->" });
    else if (kind === k.K_COMPARISON) tokens.push({ kind: "punctuation", start, end, text: text.slice(start, end) });
    else if (kind in punctuation) tokens.push({ kind: "punctuation", start, end, text: punctuation[kind] as string });
    else tokens.push({ kind: "number", start, end, text: "" });
  }
  return tokens;
}

/** Index of the first token that starts at or after `offset` (`tokens.length` when none does); binary search. */
export function firstTokenFrom(tokens: readonly Token[], offset: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((tokens[mid] as Token).start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
