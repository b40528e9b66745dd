/**
 * Where `seam fmt` must keep a file's lines for its `seam-disable-next-line` comments. Such a
 * comment silences findings that start on the line after its end, so the printer may only
 * change the layout around it where that keeps the same tokens on the line after it.
 *
 * A directive keeps its line when the layout leaves it at the end of its line with the same
 * items on the next one: it is alone on its lines (or trails an item), it lies between items
 * (not inside an item's own text, which the layout moves comments out of), nothing but blanks
 * follows it on its line, and the next line starts with items of one list (or holds no item and
 * does not start with a `}`). Then the items starting on that next line are printed as written
 * (the `silenced` lines). Any other directive is pinned: the items on the lines from its first
 * to the one it silences are printed as written, with it.
 */
import type { Range } from "../core/source-file.js";
import type { Comment, GraphDecl, SeamFile } from "./ast.js";
import { isNextLineDirective } from "./directives.js";

/** The lines (as `lineOf` numbers them) whose layout the printer keeps for directives. */
export interface DirectiveLines {
  /** The lines after directives that keep their line: the items starting on them are printed as written. */
  readonly silenced: ReadonlySet<number>;
  /** The lines of pinned directives inside a graph's body: the graph items on them are printed as written. */
  readonly pinnedInGraphs: ReadonlySet<number>;
  /**
   * The lines of pinned directives outside every graph's body (by the `seam` line, in a graph's
   * head, between graphs) or whose lines hold the start of a graph: the version line and the
   * graphs on them are printed as written.
   */
  readonly pinnedAtTop: ReadonlySet<number>;
  /** Where every item of the file ends (a comment right after one trails it). */
  readonly ends: ReadonlySet<number>;
}

/** The parts of the tree that decide where a directive may move. */
interface Layout {
  /** Where each item starts and the list it belongs to (0: the file's), in text order. */
  readonly starts: readonly { readonly offset: number; readonly list: number }[];
  /** The items' own text (what the layout moves a comment out of), in text order, disjoint. */
  readonly ownText: readonly Range[];
  /** Each graph's body, from its `{` to its end, in text order. */
  readonly bodies: readonly Range[];
  readonly ends: Set<number>;
}

/**
 * Reads the `seam-disable-next-line` comments of a file parsed without errors and says which
 * lines the printer must keep (see the module comment). `lineOf` numbers the line of an offset.
 */
export function directiveLines(source: string, ast: SeamFile, lineOf: (offset: number) => number): DirectiveLines {
  const layout = layoutOf(source, ast);
  const silenced = new Set<number>();
  const pinnedInGraphs = new Set<number>();
  const pinnedAtTop = new Set<number>();
  for (const directive of ast.comments.filter(isNextLineDirective)) {
    const first = lineOf(directive.range.start);
    const next = lineOf(directive.range.end) + 1;
    if (keepsItsLine(source, directive, layout)) {
      silenced.add(next);
      continue;
    }
    // Comments do not overlap, so these lines number at most the file's lines plus one per directive.
    const inBody = covering(layout.bodies, directive.range.start) !== undefined;
    const top = !inBody || graphStartsWithin(source, layout, lineOf, directive.range.start, next);
    for (let line = first; line <= next; line++) {
      pinnedInGraphs.add(line);
      if (top) pinnedAtTop.add(line);
    }
    silenced.add(next);
  }
  return { silenced, pinnedInGraphs, pinnedAtTop, ends: layout.ends };
}

/** Where items start, their own text and the graphs' bodies. */
function layoutOf(source: string, ast: SeamFile): Layout {
  const starts: { offset: number; list: number }[] = [];
  const ownText: Range[] = [];
  const bodies: Range[] = [];
  const ends = new Set<number>();
  const braceBefore = openingBraceFinder(source, ast.comments);
  let lists = 0;
  const version = ast.languageVersion;
  if (version !== undefined) {
    starts.push({ offset: version.range.start, list: 0 });
    ownText.push(version.range);
    ends.add(version.range.end);
  }
  for (const graph of ast.graphs as readonly GraphDecl[]) {
    starts.push({ offset: graph.range.start, list: 0 });
    ends.add(graph.range.end);
    const items = graph.items ?? [];
    const graphList = ++lists;
    const first = items[0];
    if (first === undefined) {
      ownText.push(graph.range);
      continue;
    }
    const brace = braceBefore(first.range.start);
    ownText.push({ start: graph.range.start, end: brace });
    bodies.push({ start: brace, end: graph.range.end });
    for (const item of items) {
      starts.push({ offset: item.range.start, list: graphList });
      ends.add(item.range.end);
      const inner = item.kind === "Agent" ? item.items : item.kind === "Edge" ? item.items : item.kind === "Contract" ? item.requires : [];
      const child = inner?.[0];
      if (child === undefined) {
        ownText.push(item.range);
        continue;
      }
      ownText.push({ start: item.range.start, end: braceBefore(child.range.start) });
      const blockList = ++lists;
      for (const c of inner ?? []) {
        starts.push({ offset: c.range.start, list: blockList });
        ownText.push(c.range);
        ends.add(c.range.end);
      }
    }
  }
  return { starts, ownText, bodies, ends };
}

/** A function giving the `{` that opens the block whose first item starts at an offset (blanks and comments may lie between). */
function openingBraceFinder(source: string, comments: readonly Comment[]): (offset: number) => number {
  const startOfCommentEndingAt = new Map(comments.map((c) => [c.range.end, c.range.start]));
  return (offset) => {
    let at = offset;
    for (;;) {
      while (at > 0 && /\s/.test(source[at - 1] as string)) at--;
      const comment = startOfCommentEndingAt.get(at);
      if (comment === undefined) return at - 1;
      at = comment;
    }
  };
}

/** The range of `ranges` (disjoint, in text order) that `offset` lies strictly inside, if any. */
function covering(ranges: readonly Range[], offset: number): Range | undefined {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const range = ranges[middle] as Range;
    if (offset <= range.start) high = middle - 1;
    else if (offset >= range.end) low = middle + 1;
    else return range;
  }
  return undefined;
}

/** The index of the first of `starts` at or after `offset`. */
function firstStartFrom(starts: Layout["starts"], offset: number): number {
  let low = 0;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((starts[middle] as Layout["starts"][number]).offset < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Whether the `seam` line or a graph starts on the lines from the one holding `from` to line `last`. */
function graphStartsWithin(source: string, layout: Layout, lineOf: (offset: number) => number, from: number, last: number): boolean {
  let lineStart = from;
  while (lineStart > 0 && source[lineStart - 1] !== "\n" && source[lineStart - 1] !== "\r") lineStart--;
  for (let i = firstStartFrom(layout.starts, lineStart); i < layout.starts.length; i++) {
    const start = layout.starts[i] as Layout["starts"][number];
    if (lineOf(start.offset) > last) return false;
    if (start.list === 0) return true;
  }
  return false;
}

/**
 * Whether the layout keeps a directive at the end of its line with the same items on the next
 * line (see the module comment).
 */
function keepsItsLine(source: string, comment: Comment, layout: Layout): boolean {
  let before = comment.range.start;
  while (before > 0 && (source[before - 1] === " " || source[before - 1] === "\t")) before--;
  const alone = before === 0 || source[before - 1] === "\n" || source[before - 1] === "\r";
  if (!alone && !layout.ends.has(before)) return false;
  if (covering(layout.ownText, comment.range.start) !== undefined) return false;
  // Sticky expressions from the comment's end: no copy of the rest of the file per directive.
  LINE_END.lastIndex = comment.range.end;
  if (LINE_END.exec(source) === null) return false;
  const next = LINE_END.lastIndex;
  REST_OF_LINE.lastIndex = next;
  REST_OF_LINE.exec(source);
  const nextEnd = REST_OF_LINE.lastIndex;
  const from = firstStartFrom(layout.starts, next);
  const to = firstStartFrom(layout.starts, nextEnd);
  const head = layout.starts[from];
  if (from === to || head === undefined) {
    CLOSING_NEXT.lastIndex = next;
    return !CLOSING_NEXT.test(source);
  }
  // The layout puts the first item of a line on a line of its own (a comment before it goes
  // above it), and the items of different lists (a block's and its graph's) on different lines.
  if (source.slice(next, head.offset).trim() !== "") return false;
  for (let i = from + 1; i < to; i++) if ((layout.starts[i] as Layout["starts"][number]).list !== head.list) return false;
  return true;
}

/** Blanks to the end of a line (or of the file). */
const LINE_END = /[ \t]*(?:\r\n|\r|\n|$)/y;
/** The rest of a line, without its end. */
const REST_OF_LINE = /[^\r\n]*/y;
/** A line that starts with a `}`. */
const CLOSING_NEXT = /[ \t]*\}/y;
