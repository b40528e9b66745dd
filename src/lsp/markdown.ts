/**
 * Text from a graph (terminal descriptions, versions) on its way into a Markdown hover: bounded,
 * with unprintable characters replaced and Markdown's special characters escaped, so a
 * description cannot inject links, HTML or formatting into the editor (CommonMark 0.31,
 * "Backslash escapes").
 */
import { replaceUnprintable } from "../core/printable.js";

/** Longest graph text shown in a hover, in UTF-16 code units; longer text ends with `…`. */
export const MAX_SHOWN_TEXT = 300;

/** `text` as literal Markdown text: at most {@link MAX_SHOWN_TEXT} code units, on one line. */
export function markdownText(text: string): string {
  const bounded = text.length > MAX_SHOWN_TEXT ? `${text.slice(0, MAX_SHOWN_TEXT - 1)}…` : text;
  return replaceUnprintable(bounded)
    .replace(/[\r\n\t]+/g, " ")
    .replace(/[\\`*_{}[\]()<>#!|~&]/g, (c) => `\\${c}`);
}

/** A list of at most `max` lines, then one saying how many were left out. */
export function boundedList(lines: readonly string[], max = 20): string[] {
  return lines.length <= max ? [...lines] : [...lines.slice(0, max), `- and ${lines.length - max} more`];
}
