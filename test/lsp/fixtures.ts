/** The `.seam` fixtures of the language server tests, with the URIs the tests open them under. */
import { readFileSync } from "node:fs";

/** A fixture's text and a `file:` URI for it (the file need not exist: the server reads the buffer). */
export function fixture(name: string): { uri: string; text: string } {
  const text = readFileSync(new URL(`../fixtures/lsp/${name}`, import.meta.url), "utf8");
  return { uri: `file:///work/graphs/${name}`, text };
}

/** Takes the `‸` out of `marked` and returns the text and the LSP position where it stood. */
export function withCursor(marked: string): { text: string; position: { line: number; character: number } } {
  const at = marked.indexOf("‸");
  const before = marked.slice(0, at).split(/\r\n|\r|\n/);
  return {
    text: marked.slice(0, at) + marked.slice(at + 1),
    position: { line: before.length - 1, character: (before[before.length - 1] as string).length },
  };
}

/** The hover lines after the header and its blank line, for a `delegate` edge that is not part of the checked graph (default contract). */
export const UNCHECKED_DELEGATE_HOVER: readonly string[] = [
  "Not part of the checked graph: see this edge's diagnostics.",
  "",
  "Required fields:",
  "- `constraints` (array): Rules the receiver must keep to while working on the task.",
];
