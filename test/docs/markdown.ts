/**
 * Just enough CommonMark for the docs tests: the pages, their fenced code blocks (with the info
 * string split into language and tags), their headings' anchors as GitHub computes them, and
 * their links. Code blocks and inline code are left out of headings and links.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The project root. */
export const root = fileURLToPath(new URL("../../", import.meta.url));

/** A fenced code block: its page (relative to the root), the line of its opening fence (1-based), its info string and text. */
export interface CodeBlock {
  readonly page: string;
  readonly line: number;
  /** The first word of the info string (`js` in ```` ```js run=accept ````); "" when there is none. */
  readonly lang: string;
  /** The rest of the info string, trimmed. */
  readonly tags: string;
  /** The text between the fences, ending with a line break. */
  readonly text: string;
  /** The `## ` heading the block sits under ("" before the first). */
  readonly section: string;
}

/** A link or image target in a page, with its line. */
export interface Link {
  readonly page: string;
  readonly line: number;
  readonly target: string;
}

/** README.md and every page under docs/, as paths relative to the root, sorted. */
export function docPages(): string[] {
  const pages = ["README.md"];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) pages.push(path);
    }
  };
  walk("docs");
  return pages.sort();
}

/** The text of a page (relative to the root). */
export function readPage(page: string): string {
  return readFileSync(join(root, page), "utf8");
}

/** The lines of a page outside fenced code blocks, each with its number; blocks' lines are empty. */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split("\n").map((line) => {
    const marker = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && marker !== undefined) {
      fence = marker;
      return "";
    }
    if (fence !== undefined) {
      if (line.trimEnd() === fence) fence = undefined;
      return "";
    }
    return line;
  });
}

/** Every fenced code block of a page, in order. */
export function codeBlocks(page: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = readPage(page).split("\n");
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.startsWith("## ")) section = line.slice(3).trim();
    const open = /^(`{3,}|~{3,})(.*)$/.exec(line);
    if (open === null) continue;
    const [lang = "", ...rest] = (open[2] as string).trim().split(/\s+/);
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && (lines[j] as string).trimEnd() !== open[1]) body.push(lines[j++] as string);
    if (j === lines.length) throw new Error(`${page}:${i + 1}: code block never closed`);
    blocks.push({ page, line: i + 1, lang, tags: rest.join(" "), text: body.length ? `${body.join("\n")}\n` : "", section });
    i = j;
  }
  return blocks;
}

/** The value of `name=value` in a block's tags, or undefined. */
export function tag(block: CodeBlock, name: string): string | undefined {
  return new RegExp(`(?:^|\\s)${name}=(\\S+)`).exec(block.tags)?.[1];
}

/** GitHub's anchor for a heading's text: inline markup dropped, lower case, punctuation removed, spaces to hyphens. */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\p{M} _-]/gu, "").replace(/ /g, "-");
}

/** The anchors of a page's headings, duplicates numbered as GitHub numbers them (`x`, `x-1`, ...). */
export function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of proseLines(readPage(page))) {
    const heading = /^#{1,6} (.*)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Every inline link and image target of a page outside code. */
export function links(page: string): Link[] {
  const result: Link[] = [];
  proseLines(readPage(page)).forEach((line, index) => {
    const prose = line.replace(/`[^`]*`/g, "");
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      result.push({ page, line: index + 1, target: match[1] as string });
    }
  });
  return result;
}

/** A page path relative to the root, from an absolute path. */
export function fromRoot(path: string): string {
  return relative(root, path).split("\\").join("/");
}
