/**
 * How a comment is read as a suppression directive (`// seam-disable-next-line rule -- why`,
 * `/* seam-disable rule -- why *\/`). The analysis applies them; the printer must know which
 * comments are `seam-disable-next-line`, since what one silences depends on the line after it.
 */
import type { Comment } from "./ast.js";

/** `seam-disable-next-line` or `seam-disable` at the start of a comment's text, after blanks. */
export const DIRECTIVE = /^(\s*)(seam-disable-next-line|seam-disable)(?=\s|$)/;

/** A comment's text without its delimiters (`//`; `/*` and `*\/`), and the offset where that text starts. */
export function commentBody(comment: Comment): { readonly body: string; readonly start: number } {
  const body = comment.style === "line" ? comment.text.slice(2) : comment.text.slice(2, -2);
  return { body, start: comment.range.start + 2 };
}

/** True when `comment` is a `seam-disable-next-line` directive (it silences rules on the line after its end). */
export function isNextLineDirective(comment: Comment): boolean {
  return DIRECTIVE.exec(commentBody(comment).body)?.[2] === "seam-disable-next-line";
}
