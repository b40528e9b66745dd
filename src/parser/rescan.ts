/**
 * The scan of an edited text made from the scan of the text before the edit, so that a keystroke
 * costs a scan of the few tokens around it rather than of the whole document (a 10^4-agent graph
 * has 306,000 tokens), and says which stretch of tokens the edit replaced, so that a caller can
 * tell an edit that changed no token (whitespace between tokens, a letter in a comment).
 *
 * Why reuse is exact: {@link scan} goes from one token boundary to the next, and what it reads
 * from a token's start depends only on the text from there on (at a token's start no comment is
 * open and no run of unexpected characters is pending); a step that ends at offset `j` reads at
 * most the code unit at `j + SCAN_LOOKAHEAD`. So the new scan starts as the old one up to a token
 * that begins more than that many code units before the edit; from there the new text is scanned, in a window that grows,
 * until one of its tokens begins after the edit where an old token began (moved by the change in
 * length), and from that token on the old scan is the new one, moved. A property test compares
 * {@link rescan} with {@link scan} on random edits.
 */
import { scan, SCAN_LOOKAHEAD, type ScanResult } from "./scanner.js";

/** The edit between two texts: `[from, oldTo)` of the old text became `[from, newTo)` of the new one. */
export interface TextEdit {
  readonly from: number;
  readonly oldTo: number;
  readonly newTo: number;
}

/** What {@link rescan} returns: the new scan and the stretch of it that was scanned anew. */
export interface Rescan {
  /** The scan of the new text, equal to `scan(after)`. */
  readonly scan: ScanResult;
  /** The smallest edit that turns the old text into the new one (common prefix and suffix taken off). */
  readonly edit: TextEdit;
  /**
   * Old tokens `[first, oldEnd)` were replaced by new tokens `[first, newEnd)`; the tokens
   * before `first` are the old ones, those after the old ones moved by `newTo - oldTo`.
   */
  readonly first: number;
  readonly oldEnd: number;
  readonly newEnd: number;
  /**
   * The old text's `[restart, oldStop)` was scanned anew as the new text's `[restart, newStop)`:
   * comments and unexpected characters outside it are the old ones (those after it moved).
   */
  readonly restart: number;
  readonly oldStop: number;
  readonly newStop: number;
}

/** How far past the edit the first window reaches (UTF-16 code units); each further one reaches four times as far. */
const FIRST_WINDOW = 256;

/**
 * The scan of `after` made from `previous`, the scan of `before` (see the file comment). Costs
 * a scan of the tokens around the edit plus a copy of the token arrays. Never throws.
 */
export function rescan(previous: ScanResult, before: string, after: string): Rescan {
  const from = commonPrefix(before, after);
  const suffix = commonSuffix(before, after, from);
  const edit: TextEdit = { from, oldTo: before.length - suffix, newTo: after.length - suffix };
  const delta = edit.newTo - edit.oldTo;
  // The last old token that begins more than SCAN_LOOKAHEAD code units before the edit: every
  // step of the scanner before it read the same text in both versions, so the new scan reaches it too.
  const kept = firstTokenAt(previous, from - SCAN_LOOKAHEAD) - 1;
  if (kept <= 0) {
    const scanned = scan(after);
    return { scan: scanned, edit, first: 0, oldEnd: previous.count, newEnd: scanned.count, restart: 0, oldStop: before.length, newStop: after.length };
  }
  const restart = previous.starts[kept] as number;
  const firstAfter = firstTokenAt(previous, edit.oldTo);
  for (let end = Math.min(after.length, edit.newTo + FIRST_WINDOW); ; end = Math.min(after.length, edit.newTo + (end - edit.newTo) * 4)) {
    const window = scan(after.slice(restart, end));
    const whole = end === after.length;
    // A window token is as the full scan has it when the steps before it read only inside the
    // window: it begins more than SCAN_LOOKAHEAD code units before the window's end, or the window is the rest of the text.
    let m = firstAfter;
    for (let t = 0; t < window.count; t++) {
      const start = restart + (window.starts[t] as number);
      if (!whole && start + SCAN_LOOKAHEAD + 1 > end) break;
      if (start < edit.newTo) continue;
      while (m < previous.count && (previous.starts[m] as number) < start - delta) m++;
      if (m < previous.count && previous.starts[m] === start - delta) return joined(previous, before, after, edit, kept, window, restart, t, m);
    }
    if (whole) return joined(previous, before, after, edit, kept, window, restart, window.count, previous.count);
  }
}

/**
 * Old tokens `[0, kept)`, window tokens `[0, count)` (the window scanned from `restart`), then old
 * tokens from `resume` moved; comments, unexpected runs and malformed strings likewise.
 */
function joined(previous: ScanResult, before: string, after: string, edit: TextEdit, kept: number, window: ScanResult, restart: number, count: number, resume: number): Rescan {
  const delta = edit.newTo - edit.oldTo;
  const oldStop = resume < previous.count ? (previous.starts[resume] as number) : before.length;
  const newStop = resume < previous.count ? oldStop + delta : after.length;
  const total = kept + count + previous.count - resume;
  const kinds = new Uint8Array(total);
  const starts = new Int32Array(total);
  const ends = new Int32Array(total);
  kinds.set(previous.kinds.subarray(0, kept));
  starts.set(previous.starts.subarray(0, kept));
  ends.set(previous.ends.subarray(0, kept));
  kinds.set(window.kinds.subarray(0, count), kept);
  for (let i = 0; i < count; i++) {
    starts[kept + i] = (window.starts[i] as number) + restart;
    ends[kept + i] = (window.ends[i] as number) + restart;
  }
  kinds.set(previous.kinds.subarray(resume, previous.count), kept + count);
  for (let i = resume, at = kept + count; i < previous.count; i++, at++) {
    starts[at] = (previous.starts[i] as number) + delta;
    ends[at] = (previous.ends[i] as number) + delta;
  }
  /**
   * Offset pairs: the old ones before `restart`, the window's before `newStop`, the old ones from
   * `oldStop` moved. Comments are `[start, end)` pairs (both move); unexpected runs are
   * `[offset, length]` pairs (`ends` false: only the offset moves).
   */
  const spliced = (old: readonly (readonly [number, number])[], fresh: readonly (readonly [number, number])[], ends: boolean): (readonly [number, number])[] => {
    const out: (readonly [number, number])[] = [];
    for (const pair of old) if (pair[0] < restart) out.push(pair);
    for (const [start, second] of fresh) if (start + restart < newStop) out.push([start + restart, ends ? second + restart : second]);
    for (const [start, second] of old) if (start >= oldStop) out.push([start + delta, ends ? second + delta : second]);
    return out;
  };
  const comments = spliced(previous.comments, window.comments, true);
  const unexpected = spliced(previous.unexpected, window.unexpected, false);
  const windowComment = window.unterminatedComment >= 0 ? window.unterminatedComment + restart : -1;
  const unterminatedComment = windowComment >= 0 && windowComment < newStop ? windowComment : previous.unterminatedComment >= oldStop ? previous.unterminatedComment + delta : -1;
  const malformedStrings: number[] = [];
  for (const i of previous.malformedStrings) if (i < kept) malformedStrings.push(i);
  for (const i of window.malformedStrings) if (i < count) malformedStrings.push(i + kept);
  for (const i of previous.malformedStrings) if (i >= resume) malformedStrings.push(i - resume + kept + count);
  const scanned: ScanResult = { count: total, kinds, starts, ends, unexpected, unterminatedComment, malformedStrings, comments };
  return { scan: scanned, edit, first: kept, oldEnd: resume, newEnd: kept + count, restart, oldStop, newStop };
}

/** Index of the first token that starts at or after `offset` (`scanned.count` when none does); binary search. */
export function firstTokenAt(scanned: ScanResult, offset: number): number {
  let lo = 0;
  let hi = scanned.count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((scanned.starts[mid] as number) < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Length of the longest common prefix; compared in slices first (one native comparison each). */
export function commonPrefix(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  let i = 0;
  for (let step = 4096; i + step <= limit && a.slice(i, i + step) === b.slice(i, i + step); ) i += step;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Length of the longest common suffix that does not overlap the first `prefix` code units of either text. */
export function commonSuffix(a: string, b: string, prefix: number): number {
  const limit = Math.min(a.length, b.length) - prefix;
  let n = 0;
  for (let step = 4096; n + step <= limit && a.slice(a.length - n - step, a.length - n) === b.slice(b.length - n - step, b.length - n); ) n += step;
  while (n < limit && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  return n;
}
