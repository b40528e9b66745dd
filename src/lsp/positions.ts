/**
 * Offsets <-> LSP positions. Seam's ranges are UTF-16 code unit offsets and LSP positions count
 * UTF-16 code units by default (the only encoding this server offers), so a character is an
 * offset minus its line's start: no re-encoding, and `é` or an emoji take the columns LSP
 * expects. Lines end at LF, CRLF or a lone CR, in both (LSP 3.17, "Text Documents").
 */
import type { Position, Range as LspRange } from "vscode-languageserver/node";
import { getLineAndColumn, type Range, type SourceFile } from "../core/source-file.js";

/** The LSP position (0-based line, UTF-16 character) of a UTF-16 offset; past the end clamps to the end. */
export function toPosition(file: SourceFile, offset: number): Position {
  const { line, column } = getLineAndColumn(file, offset);
  return { line: line - 1, character: column - 1 };
}

/** The LSP range of a Seam range. */
export function toLspRange(file: SourceFile, range: Range): LspRange {
  return { start: toPosition(file, range.start), end: toPosition(file, range.end) };
}

/**
 * The UTF-16 offset of an LSP position. A line past the last means the end of the text; a
 * character past the end of its line means the end of that line, line terminator excluded
 * (the clamping LSP asks for).
 */
export function toOffset(file: SourceFile, position: Position): number {
  const start = file.lineStarts[position.line];
  if (start === undefined) return file.text.length;
  let end = file.lineStarts[position.line + 1] ?? file.text.length;
  while (end > start && (file.text.charCodeAt(end - 1) === 10 || file.text.charCodeAt(end - 1) === 13)) end--;
  return Math.min(start + Math.max(0, position.character), end);
}
