/**
 * Reusing a check across an edit that leaves every token as it was, the keystrokes a language
 * server sees most: whitespace typed between tokens, a letter typed in a comment, a letter typed
 * in a terminal's description. The parser reads tokens (kinds, images, and whether digits touch
 * the name after them: {@link sameGlue}) and comments, never other whitespace, and the rules
 * read no line number but the line a `seam-disable-next-line` comment covers; so when the tokens and comments around the edit are
 * the old ones, moved, the new text's check is the old one with moved offsets
 * ({@link moveCheck}). A letter typed in a comment that is no directive, or in a terminal's
 * description (`description-edit.ts`), changes one object of the result, which is swapped in.
 * Whenever this cannot prove the edit harmless it declines and the caller checks the text in
 * full; a property test compares the two on random edits.
 */
import { readGuessMarker } from "../core/guess-marker.js";
import { hasLineBreak, type SourceFile } from "../core/source-file.js";
import type { CheckResult } from "../analysis/model.js";
import { readSuppressions } from "../analysis/suppressions.js";
import type { Comment } from "../parser/ast.js";
import { sameGlue } from "../parser/glue.js";
import { looksLikeUtf16 } from "../parser/looks-like-utf16.js";
import type { Rescan, TextEdit } from "../parser/rescan.js";
import { K_STRING, type ScanResult } from "../parser/scanner.js";
import { descriptionEdit } from "./description-edit.js";
import { apart, editShift, moveCheck, moveEnd, moveStart } from "./moved-check.js";

/**
 * The check of `file` derived from `previous` (the check of an earlier text of the same path,
 * whose scan is `before`), given `change`, the rescan that turned `before` into the new text's
 * scan; `undefined` when the edit may change a finding. The result equals `check(file)` (same
 * diagnostics in the same order, same tree and model shapes); its tree is `previous`'s, moved in
 * place when first read, or taken from `recheck()`, a fresh check of `file`, when it cannot be
 * ({@link moveCheck}). `previous` must not be read once the result's tree has been.
 */
export function reuseAcrossTokenEdit(
  previous: CheckResult,
  before: ScanResult,
  file: SourceFile,
  change: Rescan,
  recheck: () => CheckResult,
): CheckResult | undefined {
  const { edit } = change;
  const after = change.scan;
  const oldText = previous.file.text;
  const newText = file.text;
  if (looksLikeUtf16(oldText) || looksLikeUtf16(newText) || change.newEnd - change.first !== change.oldEnd - change.first) return undefined;
  const replaced = new Map<object, unknown>();
  // Tokens: the same kinds at the moved offsets; one may be a terminal's description with the
  // edit inside its quotes.
  let editedToken: number | undefined;
  for (let i = change.first; i < change.oldEnd; i++) {
    const kind = before.kinds[i];
    if (after.kinds[i] !== kind) return undefined;
    const start = before.starts[i] as number;
    const end = before.ends[i] as number;
    if (!apart(edit, start, end) || moveStart(edit, start) !== after.starts[i] || moveEnd(edit, end) !== after.ends[i]) {
      if (editedToken !== undefined || kind !== K_STRING || !inside(edit, start + 1, end - 1)) return undefined;
      if (after.starts[i] !== start || after.ends[i] !== end + edit.newTo - edit.oldTo) return undefined;
      editedToken = i;
    }
  }
  // Only digits glued to a name read differently apart.
  if (!sameGlue(before, after, change.first, change.oldEnd)) return undefined;
  if (editedToken !== undefined) {
    const range = { start: before.starts[editedToken] as number, end: before.ends[editedToken] as number };
    const swaps = descriptionEdit(previous, range, newText.slice(after.starts[editedToken], after.ends[editedToken]));
    if (swaps === undefined) return undefined;
    for (const [from, to] of swaps) replaced.set(from, to);
  }
  // Unexpected characters: the same runs, moved (their images are then the same too).
  const oldRuns = before.unexpected.filter(([offset]) => offset >= change.restart && offset < change.oldStop);
  const newRuns = after.unexpected.filter(([offset]) => offset >= change.restart && offset < change.newStop);
  if (oldRuns.length !== newRuns.length) return undefined;
  for (let i = 0; i < oldRuns.length; i++) {
    const [offset, length] = oldRuns[i] as readonly [number, number];
    const [newOffset, newLength] = newRuns[i] as readonly [number, number];
    if (!apart(edit, offset, offset + length) || moveStart(edit, offset) !== newOffset || moveEnd(edit, offset + length) !== newOffset + newLength) return undefined;
  }
  if (before.unterminatedComment >= 0 || after.unterminatedComment >= 0) return undefined;
  // Comments: the same ones, moved; one may have its body edited, when neither version is a directive.
  const comments = previous.ast.comments;
  const oldComments = before.comments;
  const newComments = after.comments;
  if (oldComments.length !== newComments.length || comments.length !== oldComments.length) return undefined;
  for (let i = firstCommentFrom(oldComments, change.restart); i < oldComments.length && (oldComments[i] as readonly [number, number])[0] < change.oldStop; i++) {
    const [start, end] = oldComments[i] as readonly [number, number];
    const [newStart, newEnd] = newComments[i] as readonly [number, number];
    if (apart(edit, start, end) && moveStart(edit, start) === newStart && moveEnd(edit, end) === newEnd) continue;
    const comment = comments[i] as Comment;
    if (replaced.size > 0 || comment.range.start !== start || newStart !== start || newEnd !== end + edit.newTo - edit.oldTo) return undefined;
    if (!inside(edit, start + 2, comment.style === "block" ? end - 2 : end)) return undefined;
    const range = { start: newStart, end: newEnd };
    const edited: Comment = { kind: "Comment", style: comment.style, text: newText.slice(newStart, newEnd), range };
    if (isDirective(comment) || isDirective(edited)) return undefined;
    replaced.set(comment, edited);
    replaced.set(comment.range, range);
  }
  // A line break added or taken away moves the line every `seam-disable-next-line` covers; so
  // does an edit between a CR and an LF, which splits one CRLF line break into two or joins them.
  const splitsCrlf = oldText.charCodeAt(edit.from - 1) === 13 && oldText.charCodeAt(edit.oldTo) === 10;
  if (splitsCrlf || hasLineBreak(oldText, edit.from, edit.oldTo) || hasLineBreak(newText, edit.from, edit.newTo)) {
    if (readSuppressions(comments).length > 0) return undefined;
  }
  return moveCheck(previous, file, editShift(edit), replaced, recheck);
}

/** True when the edit lies in `[start, end]` (the body of a comment or of a string literal). */
function inside(edit: TextEdit, start: number, end: number): boolean {
  return edit.from >= start && edit.oldTo <= end;
}

/** Index of the first comment that starts at or after `offset`; binary search. */
function firstCommentFrom(comments: readonly (readonly [number, number])[], offset: number): number {
  let lo = 0;
  let hi = comments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((comments[mid] as readonly [number, number])[0] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** True when the comment is a suppression directive or a `seam-guess` marker, which the check reads. */
function isDirective(comment: Comment): boolean {
  return readSuppressions([comment]).length > 0 || readGuessMarker(comment) !== undefined;
}
