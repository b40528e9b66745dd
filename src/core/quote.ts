/**
 * Text from a graph that reaches a message (an agent's `version` string can hold any character
 * through `\u` escapes) is quoted as a JSON string, with the characters JSON leaves raw but a
 * terminal obeys (DEL, C1 controls, bidirectional overrides, line and paragraph separators)
 * escaped too, and bounded in length.
 */

/** Longest quoted text, in UTF-16 code units before quoting; longer text ends in `…`. */
export const MAX_QUOTED = 64;

const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]/g;

/** `text` as a safe, bounded, double-quoted JSON string. */
export function quote(text: string): string {
  const bounded = text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}\u2026` : text;
  return JSON.stringify(bounded).replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
