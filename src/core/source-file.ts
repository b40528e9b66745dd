/**
 * A source text with its line starts cached, so that offsets can be turned into
 * line/column positions only when a diagnostic is printed (TypeSpec's habit).
 */

/** A half-open span of UTF-16 code unit offsets into a source text: `[start, end)`. */
export interface Range {
  /** Offset of the first code unit (0-based). */
  readonly start: number;
  /** Offset one past the last code unit; `end >= start`. */
  readonly end: number;
}

/** A 1-based line and column; the column counts UTF-16 code units, as ESLint and tsc do. */
export interface LineAndColumn {
  readonly line: number;
  readonly column: number;
}

/** A named source text. `path` is what the user gave (or a label such as `<stdin>`). */
export interface SourceFile {
  readonly path: string;
  readonly text: string;
  /** Offsets at which each line begins; `lineStarts[0] === 0`. LF, CRLF and lone CR end lines. */
  readonly lineStarts: readonly number[];
}

/**
 * Creates a {@link SourceFile}; its line starts are computed on first use. A leading byte order mark is kept in `text` (offsets stay those
 * of the input) and is skipped by the lexer.
 *
 * @param path - the name diagnostics print for this file
 * @param text - the decoded text
 */
export function createSourceFile(path: string, text: string): SourceFile {
  // Line starts are only needed to print positions; a clean 20 MB file never pays for them, and
  // a position near the top reads only the lines above it (see getLineAndColumn).
  const index = new LineIndex(text);
  const file: SourceFile = {
    path,
    text,
    get lineStarts() {
      return index.startsUpTo(text.length);
    },
  };
  lineIndexes.set(file, index);
  return file;
}

/**
 * The line starts of a text, found as far as they were asked for: a diagnostic at line 7 of a
 * 21 MB file does not scan its 6 * 10^5 lines.
 */
class LineIndex {
  private readonly text: string;
  private starts: number[] = [0];
  /** Offset of the first code unit not scanned yet. */
  private scanned = 0;

  constructor(text: string) {
    this.text = text;
  }

  /**
   * Every line start `<= offset`, in order, perhaps followed by later ones; the whole list (and
   * the same array from then on) once `offset >= text.length`.
   */
  startsUpTo(offset: number): readonly number[] {
    const { text, starts } = this;
    const limit = Math.min(offset, text.length);
    let i = this.scanned;
    // A start at s follows a terminator ending at s - 1, so scanning below `limit` finds each s <= limit.
    for (; i < limit; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (c === 10 /* \n */) {
        starts.push(i + 1);
      }
    }
    this.scanned = i;
    return starts;
  }

  /**
   * Takes the line starts that `old` has found, moved by an edit that replaced `[from, oldTo)`
   * of `old`'s text by this text's `[from, newTo)`, when the edit neither removed nor inserted
   * a line terminator nor touched one that a `\r` starts (where `\r` + `\n` may join or part);
   * otherwise, or once this index has been read, it is left as it was (false). A copy of an array,
   * where the scan of a 2 MB text for its line breaks took about 2 ms.
   */
  carry(old: LineIndex, from: number, oldTo: number, newTo: number): boolean {
    if (this.scanned > 0 || old.text.charCodeAt(from - 1) === 13) return false;
    if (hasLineBreak(old.text, from, oldTo) || hasLineBreak(this.text, from, newTo)) return false;
    const delta = newTo - oldTo;
    // Found so far: a start s > from follows a terminator at s - 1 >= oldTo, which moved.
    const scanned = old.scanned <= from ? old.scanned : old.scanned >= oldTo ? old.scanned + delta : from;
    // The starts up to `from` stay; the rest (none inside the edit) move, or go when not yet found.
    // A copy, then a loop over its tail: a push per start took as long again.
    let kept = 0;
    let hi = old.starts.length;
    while (kept < hi) {
      const mid = (kept + hi) >> 1;
      if ((old.starts[mid] as number) <= from) kept = mid + 1;
      else hi = mid;
    }
    const starts = scanned <= from ? old.starts.slice(0, kept) : old.starts.slice();
    for (let k = kept; k < starts.length; k++) starts[k] = (starts[k] as number) + delta;
    this.starts = starts;
    this.scanned = scanned;
    return true;
  }
}

/** True when `text` has a line break (`\n` or `\r`, as the scanner and line starts count them) in `[from, to)` (UTF-16 offsets). */
export function hasLineBreak(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return true;
  }
  return false;
}

/**
 * Gives `next` (made by {@link createSourceFile}) the line starts that `previous` has found, moved
 * by `edit` (`next`'s text is `previous`'s with `[from, oldTo)` replaced by `next.text`'s
 * `[from, newTo)`), when the edit touched no line break; otherwise `next` finds its own. Either
 * way its positions are those of its text. An editor's keystroke so skips a scan of the whole
 * text for the positions of its diagnostics.
 *
 * @returns whether the starts were carried (false: `next` scans its own text when asked)
 */
export function carryLineStarts(previous: SourceFile, next: SourceFile, edit: { readonly from: number; readonly oldTo: number; readonly newTo: number }): boolean {
  const old = lineIndexes.get(previous);
  const fresh = lineIndexes.get(next);
  return old !== undefined && fresh !== undefined && old !== fresh && fresh.carry(old, edit.from, edit.oldTo, edit.newTo);
}

/** The line index of each file made by {@link createSourceFile}; other files use `lineStarts`. */
const lineIndexes = new WeakMap<SourceFile, LineIndex>();

/**
 * Converts an offset into a 1-based line and column by binary search over the line starts.
 * Offsets past the end are clamped to the end of the text.
 *
 * @param file - the source file
 * @param offset - a UTF-16 code unit offset
 */
export function getLineAndColumn(file: SourceFile, offset: number): LineAndColumn {
  const pos = Math.max(0, Math.min(offset, file.text.length));
  const starts = lineIndexes.get(file)?.startsUpTo(pos) ?? file.lineStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= pos) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: pos - (starts[lo] as number) + 1 };
}

/**
 * {@link getLineAndColumn} as an editor shows the position: a byte order mark at the start of the
 * text, which editors hide and ESLint and tsc strip before counting, takes no column of line 1.
 * For what a terminal or CI shows; a language server counts what its client sent instead.
 */
export function getShownLineAndColumn(file: SourceFile, offset: number): LineAndColumn {
  const at = getLineAndColumn(file, offset);
  return at.line === 1 && at.column > 1 && file.text.charCodeAt(0) === BYTE_ORDER_MARK ? { line: 1, column: at.column - 1 } : at;
}

/** {@link getLineText} as an editor shows the line: line 1 without a leading byte order mark (see {@link getShownLineAndColumn}). */
export function getShownLineText(file: SourceFile, line: number): string {
  const text = getLineText(file, line);
  return line === 1 && text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
}

const BYTE_ORDER_MARK = 0xfeff;

/**
 * The text of one line (1-based), without its line terminator; used to print the source line
 * under a diagnostic.
 */
export function getLineText(file: SourceFile, line: number): string {
  const start = file.lineStarts[line - 1];
  if (start === undefined) return "";
  const next = file.lineStarts[line];
  let end = next ?? file.text.length;
  while (end > start && (file.text.charCodeAt(end - 1) === 10 || file.text.charCodeAt(end - 1) === 13)) end--;
  return file.text.slice(start, end);
}

/**
 * Converts a 1-based line and column (UTF-16 code units, as {@link getLineAndColumn} gives and
 * as LSP positions count, plus one) into an offset. A line past the end gives the end of the
 * text; a column past the end of its line gives the end of that line (before its terminator).
 */
export function getOffset(file: SourceFile, position: LineAndColumn): number {
  const start = file.lineStarts[position.line - 1];
  if (start === undefined) return file.text.length;
  const lineEnd = start + getLineText(file, position.line).length;
  return Math.min(start + Math.max(0, position.column - 1), lineEnd);
}
