/**
 * Reusing a check across an edit that stays inside one plain comment, the keystroke a language
 * server sees most while someone writes notes in a graph. Such an edit cannot change a token, a
 * line number, a suppression or a `seam-guess` marker, so the new text's check is the old one
 * with every offset after the edit moved by the change in length. That is what
 * {@link reuseAcrossCommentEdit} builds, in time proportional to what lies after the edit: the
 * parts of the tree and model that end before it are shared, the rest copied with moved ranges. Whenever it cannot prove the edit harmless it declines, and the caller checks
 * the text in full; a property test compares the two on random edits.
 */
import { readGuessMarker } from "../core/guess-marker.js";
import type { Range, SourceFile } from "../core/source-file.js";
import type { CheckResult } from "../analysis/model.js";
import { readSuppressions } from "../analysis/suppressions.js";
import type { Comment } from "../parser/ast.js";

/** Thrown inside the copy when a range cannot be moved without a fresh check. */
class NotReusable extends Error {}

/**
 * The check of `file` derived from `previous` (the check of an earlier text of the same file),
 * or `undefined` when the texts differ anywhere but inside the body of one comment that is no
 * directive (`seam-disable...`, `seam-guess`) before or after, or the edit adds or removes a
 * line break or U+0000, or some range of the result ends inside the edited span. The result
 * equals `check(file)` (same diagnostics in the same order, same tree and model shapes).
 */
export function reuseAcrossCommentEdit(previous: CheckResult, file: SourceFile): CheckResult | undefined {
  const before = previous.file.text;
  const after = file.text;
  const prefix = commonPrefix(before, after);
  const suffix = commonSuffix(before, after, prefix);
  /** The edit replaces [from, oldTo) of the old text by [from, newTo) of the new one. */
  const from = prefix;
  const oldTo = before.length - suffix;
  const newTo = after.length - suffix;
  if (!plainText(before, from, oldTo) || !plainText(after, from, newTo)) return undefined;

  const comment = commentAround(previous.ast.comments, from, oldTo);
  if (comment === undefined) return undefined;
  const delta = newTo - oldTo;
  const end = comment.range.end + delta;
  // The scanner ends a block comment at the first `*/` after its opener: that must still be its own.
  if (comment.style === "block" && after.indexOf("*/", comment.range.start + 2) !== end - 2) return undefined;
  const edited: Comment = { kind: "Comment", style: comment.style, text: after.slice(comment.range.start, end), range: { start: comment.range.start, end } };
  if (isDirective(comment) || isDirective(edited)) return undefined;

  const moved = new Map<object, unknown>([
    [previous.file, file],
    [comment, edited],
    [comment.range, edited.range],
    [previous.ast.range, { start: 0, end: after.length }],
  ]);
  const move = (offset: number): number => {
    if (offset < from) return offset;
    if (offset > oldTo) return offset + delta;
    throw new NotReusable();
  };
  const copy = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    const known = moved.get(value);
    if (known !== undefined) return known;
    let result: unknown;
    if (Array.isArray(value)) {
      let changed = false;
      const items = value.map((item) => {
        const copied = copy(item);
        if (copied !== item) changed = true;
        return copied;
      });
      result = changed ? items : value;
    } else if (Object.getPrototypeOf(value) !== Object.prototype) {
      throw new NotReusable(); // a Map, class instance...: not plain data this copy understands
    } else if (isRange(value)) {
      const start = move(value.start);
      const end = move(value.end);
      result = start === value.start && end === value.end ? value : { start, end };
    } else if (isNodeBefore(value, from) || isNodeBefore((value as { decl?: object }).decl, from)) {
      // A tree node and everything under it lie before the edit; so does a checked agent, edge,
      // join or graph whose declaration does (it is made from that declaration alone).
      return value;
    } else {
      let changed = false;
      const fields: Record<string, unknown> = {};
      for (const key of Object.keys(value)) {
        const field = (value as Record<string, unknown>)[key];
        const copied = copy(field);
        if (copied !== field) changed = true;
        fields[key] = copied;
      }
      result = changed ? fields : value;
    }
    // Only what changed is remembered: the same object met again maps to the same copy.
    if (result !== value) moved.set(value, result);
    return result;
  };
  try {
    return copy(previous) as CheckResult;
  } catch (error) {
    if (error instanceof NotReusable) return undefined;
    throw error;
  }
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

/** True when `text[from, to)` has no line break (the scanner's `\n`, `\r`) and no U+0000 (the UTF-16 sniff). */
function plainText(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0) return false;
  }
  return true;
}

/** The comment whose body (delimiters excluded) holds `[from, to)`, by binary search; `undefined` when none does. */
function commentAround(comments: readonly Comment[], from: number, to: number): Comment | undefined {
  let lo = 0;
  let hi = comments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((comments[mid] as Comment).range.start <= from) lo = mid + 1;
    else hi = mid;
  }
  const comment = comments[lo - 1];
  if (comment === undefined) return undefined;
  const bodyEnd = comment.style === "block" ? comment.range.end - 2 : comment.range.end;
  return from >= comment.range.start + 2 && to <= bodyEnd ? comment : undefined;
}

/** True when the comment is a suppression directive or a `seam-guess` marker, which the check reads. */
function isDirective(comment: Comment): boolean {
  return readSuppressions([comment]).length > 0 || readGuessMarker(comment) !== undefined;
}

function isRange(value: object): value is Range {
  const keys = Object.keys(value);
  return keys.length === 2 && typeof (value as Range).start === "number" && typeof (value as Range).end === "number";
}

/** True for a syntax tree node (a `kind` and a `range`) that ends before `offset`: its whole subtree does. */
function isNodeBefore(value: object | undefined, offset: number): boolean {
  const node = value as { kind?: unknown; range?: Range } | undefined;
  return typeof node?.kind === "string" && node.range !== undefined && node.range.end < offset;
}
