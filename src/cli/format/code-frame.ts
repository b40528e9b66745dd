/**
 * The source line of the pretty format, made safe and short for a terminal: clipped to a window
 * of display columns around the flagged range (`…` marks the cut ends), tabs expanded to tab
 * stops, control characters shown as visible symbols, and columns counted as the terminal
 * counts them (wide characters take two). The caret column and width it returns are in the
 * same display columns, so the underline lands under the range.
 *
 * Cost: laying out a line is linear in its length and done once per line (the caller keeps the
 * layout while diagnostics stay on that line); framing one diagnostic then costs about the
 * window's width, however long the line, so 50,000 findings on one 100 KB line stay cheap.
 */
import { codePointWidth } from "./display-width.js";
import { isFormatCharacter } from "../../core/untrusted-text.js";

/** Widest source line printed, in display columns, `…` marks included (rustc-like). */
export const CODE_FRAME_WIDTH = 120;

/** Columns a tab advances to (rustc prints tabs as four spaces). */
const TAB_WIDTH = 4;

/** Marks a side of the line that was cut off. */
const ELLIPSIS = "\u2026";

/** A source line with the display column of every UTF-16 offset. */
export interface LineLayout {
  /** The line's text, without its line break. */
  readonly text: string;
  /**
   * `columns[i]`: the 0-based display column where the code unit at offset `i` starts (both
   * halves of a surrogate pair get the pair's column); `columns[text.length]` is the line's width.
   */
  readonly columns: Uint32Array;
}

/** The clipped line and where its underline goes, in display columns of {@link FramedLine.text}. */
export interface FramedLine {
  readonly text: string;
  /** 0-based display column of the caret. */
  readonly caretColumn: number;
  /** Display columns to underline, at least 1. */
  readonly caretWidth: number;
}

/** Lays out `text` (one line, no line break): see {@link LineLayout}. Linear in its length. */
export function layoutLine(text: string): LineLayout {
  const columns = new Uint32Array(text.length + 1);
  let column = 0;
  for (let i = 0; i < text.length; ) {
    columns[i] = column;
    const size = unitCount(text, i);
    if (size === 2) columns[i + 1] = column;
    column += charWidth(text, i, column);
    i += size;
  }
  columns[text.length] = column;
  return { text, columns };
}

/**
 * Frames the range `[from, to)` of a laid-out line (UTF-16 offsets within the line, `to >= from`).
 * A line no wider than `maxWidth` is printed whole; a wider one is cut to `maxWidth` columns
 * around the range, and a range wider than the window is underlined up to the window's end.
 *
 * @param maxWidth - display columns available for the line, at least 3
 */
export function frameLine(layout: LineLayout, from: number, to: number, maxWidth = CODE_FRAME_WIDTH): FramedLine {
  const { text, columns } = layout;
  const lineWidth = columns[text.length] as number;
  const caretStart = columns[from] as number;
  const caretEnd = Math.max(caretStart, columns[to] as number);
  const rangeWidth = Math.max(1, caretEnd - caretStart);

  let windowStart = 0;
  let windowEnd = lineWidth;
  if (lineWidth > maxWidth) {
    // Centre a range that fits (more context on both sides); show a wider one from near its start.
    const left = Math.min(caretStart, rangeWidth + 2 <= maxWidth ? Math.floor((maxWidth - rangeWidth) / 2) : 1);
    windowEnd = Math.min(lineWidth, caretStart - left + maxWidth);
    windowStart = Math.max(0, windowEnd - maxWidth);
  }
  const cutLeft = windowStart > 0;
  const cutRight = windowEnd < lineWidth;
  const contentStart = cutLeft ? windowStart + 1 : windowStart;
  const contentEnd = cutRight ? windowEnd - 1 : windowEnd;

  let i = firstOffsetAt(columns, contentStart);
  let column = columns[i] as number;
  // A wide character cut in half by the window's edge is left out; spaces keep the columns.
  let shown = cutLeft ? ELLIPSIS + " ".repeat(column - contentStart) : "";
  while (i < text.length) {
    const size = unitCount(text, i);
    const next = columns[i + size] as number;
    if (next > contentEnd) break;
    shown += printable(text, i, next - column);
    column = next;
    i += size;
  }
  if (cutRight) shown += " ".repeat(contentEnd - column) + ELLIPSIS;
  return {
    text: shown,
    caretColumn: caretStart - windowStart,
    caretWidth: Math.max(1, Math.min(caretEnd, contentEnd) - caretStart),
  };
}

/** The smallest offset whose column is at least `column` (columns never decrease). */
function firstOffsetAt(columns: Uint32Array, column: number): number {
  let low = 0;
  let high = columns.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((columns[mid] as number) < column) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** 2 for a well-formed surrogate pair at `i`, else 1. */
function unitCount(text: string, i: number): 1 | 2 {
  const code = text.charCodeAt(i);
  if (code < 0xd800 || code > 0xdbff || i + 1 >= text.length) return 1;
  const low = text.charCodeAt(i + 1);
  return low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
}

/** Display columns of the character at `i` when it starts at `column`. */
function charWidth(text: string, i: number, column: number): number {
  const code = text.charCodeAt(i);
  if (code === 9) return (Math.floor(column / TAB_WIDTH) + 1) * TAB_WIDTH - column;
  if (isControl(code)) return 1;
  // A lone surrogate is its own code point here, one column, like the U+FFFD printed for it.
  return codePointWidth(text.codePointAt(i) as number);
}

/**
 * What the terminal is sent for the character at `i`, `width` columns wide. A tab becomes spaces;
 * C0 controls and DEL become their Control Pictures symbol (NUL -> U+2400, ESC -> U+241B), C1
 * controls, bidirectional and invisible format characters and lone surrogates U+FFFD: a control
 * character from a file must never reach the terminal, where it could move the cursor or
 * recolour the screen, nor a bidi override, which reorders what the reader sees (Trojan Source).
 */
function printable(text: string, i: number, width: number): string {
  const code = text.charCodeAt(i);
  if (code === 9) return " ".repeat(width);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  if (isControl(code)) return "\ufffd";
  const size = unitCount(text, i);
  if (size === 1 && code >= 0xd800 && code <= 0xdfff) return "\ufffd";
  return text.slice(i, i + size);
}

function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || isFormatCharacter(code);
}
