/**
 * The canonical layout of a `.seam` file (`seam fmt`, and formatting in an editor): the tree
 * printed back with every comment where it was, so that formatting is idempotent and the text
 * parses to the same tree. Like gofmt and `terraform fmt`, it has no options.
 *
 * The layout: the `seam` line, then each graph (`graph NAME {`, its items indented by two
 * spaces, `}`), a blank line between graphs; one item per line; a block (`{ ... }` of an agent,
 * an edge or a contract) with one item and no comment stays on the item's line, a longer one
 * gets a line per item; an empty agent or edge block is dropped (it means nothing), a contract
 * keeps its braces. One blank line between items is kept where the source had one or more.
 * Names, field paths, strings and versions are written as they were read (strings keep their
 * escapes); integers are written in decimal without leading zeros.
 *
 * Comments: those before an item (on their own lines) stay before it; one after an item on the
 * same line stays at the end of that line; those after the last item of a block stay before its
 * `}`. A comment inside an item's own text (`delegate a /* x *\/ -> b`) moves to its own line
 * before the item, so comments keep their order. Only a file without syntax errors is printed
 * (see {@link formatSource}).
 *
 * Suppressions: a `seam-disable-next-line` comment silences findings on the line after it, so
 * the items that start on that line (the `seam` line or a graph, an item of a graph or of a
 * block) are printed as written, only their first line re-indented: joining or splitting their
 * lines would change what the comment silences (a graph whose first line is `graph NAME {` alone
 * keeps that line anyway, and its body is laid out). A directive the layout would move off its
 * line (one with code or another comment after it on its line, a block comment before an item or
 * inside a one-line block, one inside an item's own text, one whose next line starts with a `}`,
 * with a comment before its first item or with items of a block and of its graph) keeps its lines
 * too: the items on the lines from the directive's first to the line after its end are printed
 * as written, with it and the comments before them on those lines (`print-directives.ts` says
 * which). No blank line is added between the graphs after a directive that ends the line before
 * one. Formatting never changes a file's diagnostics.
 */
import type { Range, SourceFile } from "../core/source-file.js";
import type {
  AgentDecl,
  AgentItem,
  Comment,
  Condition,
  ContractDecl,
  EdgeDecl,
  EdgeItem,
  FieldPath,
  GraphDecl,
  GraphItem,
  GuardDecl,
  JoinDecl,
  RequireDecl,
  SeamFile,
} from "./ast.js";
import { settingOfNode } from "../core/settings.js";
import { parse } from "./parse.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { createSourceFile, getLineAndColumn } from "../core/source-file.js";
import { directiveLines, type DirectiveLines } from "./print-directives.js";

const INDENT = "  ";
/** A block goes on its item's line only when that line stays within this many characters. */
const MAX_ONE_LINE = 100;
/** Marks where a trailing comment starts in a printed line, until {@link alignTrailingComments}. */
const TRAILING = "\u0000";

/** What {@link formatSource} returns: the formatted text, or the syntax errors that prevent it. */
export type FormatResult =
  | { readonly ok: true; readonly text: string; readonly changed: boolean }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/**
 * Formats a file. A file with syntax errors is not formatted (its tree may miss parts, and
 * printing it would lose text): the result then holds its `syntax` diagnostics. Never throws.
 */
export function formatSource(file: SourceFile): FormatResult {
  const { ast, diagnostics } = parse(file);
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  const text = printFile(file.text, ast);
  return { ok: true, text, changed: text !== file.text };
}

/** An item of a list with its range; `print` gives its one line (or lines, for a long block). */
interface Printable {
  readonly range: Range;
  print(indent: string): string[];
  /**
   * True for a graph whose first line holds only its head (`graph NAME {`): the layout keeps
   * that line's tokens on it, so a directive before it needs no more than that.
   */
  readonly headOwnsLine?: boolean;
}

/**
 * Prints a tree parsed without errors from `source` (the text is needed for the layout of
 * comments and blank lines, and for strings as written).
 */
export function printFile(source: string, ast: SeamFile): string {
  const printer = new Printer(source, ast);
  const items: Printable[] = [];
  const version = ast.languageVersion;
  if (version !== undefined && version.value !== undefined) {
    items.push({ range: version.range, print: () => [`seam ${version.value?.value}`] });
  }
  for (const graph of ast.graphs) {
    if (graph.hasError) throw new Error("internal: printFile needs a tree without errors");
    items.push({ range: graph.range, print: (indent) => printer.graph(graph, indent), headOwnsLine: headOwnsLine(source, graph) });
  }
  const lines = printer.list(printer.top(items), "", { alwaysBlank: true });
  return `${alignTrailingComments(lines).join("\n")}\n`;
}

class Printer {
  private next = 0;
  private readonly comments: readonly Comment[];
  /** The lines the layout keeps for `seam-disable-next-line` comments (see `print-directives.ts`). */
  private readonly directives: DirectiveLines;
  private readonly lineOf: (offset: number) => number;

  constructor(
    private readonly source: string,
    ast: SeamFile,
  ) {
    const file = createSourceFile("", source);
    this.lineOf = (offset) => getLineAndColumn(file, offset).line;
    this.comments = ast.comments;
    this.directives = directiveLines(source, ast, this.lineOf);
  }

  /** The file's own items (the `seam` line, the graphs), each run on a directive's lines made one item printed as written. */
  top(items: readonly Printable[]): readonly Printable[] {
    return this.asWrittenWhereSilenced(items, this.directives.pinnedAtTop);
  }

  /** Whether an item spanning lines `first` to `last` lies on the lines in `pinned` (graph items: their lines add up to the file's). */
  private pinned(pinned: ReadonlySet<number>, first: number, last: number): boolean {
    if (pinned.size === 0) return false;
    for (let line = first; line <= last; line++) if (pinned.has(line)) return true;
    return false;
  }

  /**
   * `items` with each run of items that start on a line a `seam-disable-next-line` comment
   * silences replaced by one item printed as written (see the module comment); with `pinned`
   * (for the file's or a graph's own items), also each run on the lines of a directive the
   * layout could move, with the comments before it on those lines.
   */
  private asWrittenWhereSilenced(items: readonly Printable[], pinned?: ReadonlySet<number>): readonly Printable[] {
    if (this.directives.silenced.size === 0) return items;
    const out: Printable[] = [];
    const pinnedItem = (item: Printable): boolean => pinned !== undefined && this.pinned(pinned, this.lineOf(item.range.start), this.lineOf(item.range.end));
    for (let i = 0; i < items.length; i++) {
      const first = items[i] as Printable;
      const line = this.lineOf(first.range.start);
      if (pinnedItem(first)) {
        // The run of items on these lines, each on the line where the one before (or a comment after it) ends.
        let last = first;
        while (i + 1 < items.length && pinnedItem(items[i + 1] as Printable) && !this.startsLine((items[i + 1] as Printable).range.start)) {
          last = items[++i] as Printable;
        }
        const range = { start: this.startOfPinnedComments(first.range.start, line, pinned as ReadonlySet<number>), end: last.range.end };
        out.push({ range, print: (indent) => this.asWritten(range, indent) });
        continue;
      }
      if (!this.directives.silenced.has(line) || first.headOwnsLine === true) {
        out.push(first);
        continue;
      }
      let last = first;
      while (i + 1 < items.length && this.lineOf((items[i + 1] as Printable).range.start) === line) last = items[++i] as Printable;
      const range = { start: first.range.start, end: last.range.end };
      out.push({ range, print: (indent) => this.asWritten(range, indent) });
    }
    return out;
  }

  /** True when only blanks lie between the start of its line and `offset`. */
  private startsLine(offset: number): boolean {
    let before = offset;
    while (before > 0 && (this.source[before - 1] === " " || this.source[before - 1] === "\t")) before--;
    return before === 0 || this.source[before - 1] === "\n" || this.source[before - 1] === "\r";
  }

  /**
   * Where the comments not yet printed before `offset` (on line `line`) that the layout would
   * move off the pinned lines start: those ending on `line`, and a chain of comments on pinned
   * lines up to it that starts a line (`/* seam-disable-next-line x *\/ // note` above an item);
   * `offset` when there is none.
   */
  private startOfPinnedComments(offset: number, line: number, pinned: ReadonlySet<number>): number {
    let start = offset;
    let from = offset;
    for (let i = this.firstCommentBefore(offset); i >= this.next; i--) {
      const comment = this.comments[i] as Comment;
      // Only blanks between this comment and the text taken so far, and all its lines pinned.
      if (this.source.slice(comment.range.end, from).trim() !== "") break;
      const onLine = this.lineOf(comment.range.end) === line;
      if (!onLine && !this.allPinned(pinned, this.lineOf(comment.range.start), line)) break;
      from = comment.range.start;
      if (onLine || this.startsLine(from)) start = from;
    }
    return start;
  }

  /** Whether every line from `first` to `last` is in `pinned`. */
  private allPinned(pinned: ReadonlySet<number>, first: number, last: number): boolean {
    for (let line = first; line <= last; line++) if (!pinned.has(line)) return false;
    return true;
  }

  /** The index of the last comment not yet printed that starts before `offset` (`this.next - 1` when none does). */
  private firstCommentBefore(offset: number): number {
    let i = this.next;
    while (i < this.comments.length && (this.comments[i] as Comment).range.start < offset) i++;
    return i - 1;
  }

  /** The source of `range` line by line, the first line indented; the comments inside it are taken (they are in the text). */
  private asWritten(range: Range, indent: string): string[] {
    this.takeBefore(range.end);
    const lines = this.source.slice(range.start, range.end).split(/\r\n|\r|\n/);
    return lines.map((line, i) => (i === 0 ? `${indent}${line}` : line.trimEnd()));
  }

  /** The comments not yet printed that start before `offset`, taken. */
  private takeBefore(offset: number): Comment[] {
    const taken: Comment[] = [];
    while (this.next < this.comments.length && (this.comments[this.next] as Comment).range.start < offset) {
      taken.push(this.comments[this.next++] as Comment);
    }
    return taken;
  }

  /** True when a line break lies in the source between `from` and `to`. */
  private breakBetween(from: number, to: number): boolean {
    return /[\r\n]/.test(this.source.slice(from, to));
  }

  /** True when the source has a blank line between `from` and `to`. */
  private blankBetween(from: number, to: number): boolean {
    return /\r?\n[ \t\f\v]*\r?\n|\r[ \t\f\v]*\r/.test(this.source.slice(from, to));
  }

  /**
   * Prints `items` one after another, each with its leading comments, the comments inside it
   * that no nested list took, and a trailing comment on its line; then the comments left before
   * `end` (the block's `}`).
   */
  list(
    items: readonly Printable[],
    indent: string,
    options: { end?: number; alwaysBlank?: boolean } = {},
  ): string[] {
    const out: string[] = [];
    let previousEnd = -1;
    let previous: Printable | undefined;
    const blankBefore = (start: number): boolean => {
      if (previous === undefined) return false;
      const written = this.blankBetween(previousEnd, start);
      // A blank line added after a directive that ends the line before would become what it silences.
      if (options.alwaysBlank === true) return written || !this.directives.silenced.has(this.lineOf(start));
      return written;
    };
    for (const [index, item] of items.entries()) {
      const leading = this.takeBefore(item.range.start);
      let first = true;
      let commentEnd = 0;
      for (const comment of leading) {
        if (first ? blankBefore(comment.range.start) : this.blankBetween(commentEnd, comment.range.start)) out.push("");
        first = false;
        commentEnd = comment.range.end;
        out.push(...this.commentLines(comment, indent));
      }
      if (first ? blankBefore(item.range.start) : this.blankBetween(commentEnd, item.range.start)) out.push("");
      const printed = item.print(indent);
      // Comments inside the item's own text that no nested list printed go on their own lines
      // before it (in order); those after it on its line stay at the end of its line.
      for (const comment of this.takeBefore(item.range.end)) out.push(...this.commentLines(comment, indent));
      // A comment after the next item, or after the block's `}`, on the same line is not this item's.
      const trailing = this.takeTrailing(item.range.end, items[index + 1]?.range.start ?? options.end ?? Number.POSITIVE_INFINITY);
      const tail = trailing.map((c) => withLineFeeds(c.text).trimEnd());
      if (tail.length > 0) printed[printed.length - 1] = `${printed[printed.length - 1]}${TRAILING}${tail.join(" ")}`;
      // A loop, not push(...printed): a graph's lines are as many as its items, and spreading
      // 100,000 of them into call arguments overflows the stack.
      for (const line of printed) out.push(line);
      // Blank lines are looked for after the last comment on the item's line (one may span lines).
      previousEnd = trailing[trailing.length - 1]?.range.end ?? item.range.end;
      previous = item;
    }
    if (options.end !== undefined) {
      const dangling = this.takeBefore(options.end);
      for (const comment of dangling) {
        if (previous !== undefined && this.blankBetween(previousEnd, comment.range.start)) out.push("");
        out.push(...this.commentLines(comment, indent));
        previousEnd = comment.range.end;
        previous ??= { range: comment.range, print: () => [] };
      }
    } else {
      // The end of the file: every comment left.
      for (const comment of this.takeBefore(Number.POSITIVE_INFINITY)) {
        if (previous !== undefined) out.push("");
        out.push(...this.commentLines(comment, indent));
        previous ??= { range: comment.range, print: () => [] };
      }
    }
    return out;
  }

  /** The comments right after `end` on the same line, taken; none from `limit` on (where the next item or the block's `}` is). */
  private takeTrailing(end: number, limit: number): Comment[] {
    const taken: Comment[] = [];
    let from = end;
    for (;;) {
      const next = this.comments[this.next];
      if (next === undefined || next.range.start >= limit || this.breakBetween(from, next.range.start)) return taken;
      taken.push(next);
      this.next++;
      from = next.range.end;
    }
  }

  /** A comment on its own line(s); a block comment's later lines are kept as written. */
  private commentLines(comment: Comment, indent: string): string[] {
    return [`${indent}${withLineFeeds(comment.text).trimEnd()}`];
  }

  /** True when no comment starts inside `range`. */
  private noCommentIn(range: Range): boolean {
    const next = this.comments[this.next];
    return next === undefined || next.range.start >= range.end;
  }

  graph(graph: GraphDecl, indent: string): string[] {
    const head = `${indent}graph ${graph.name.name} {`;
    const items = graph.items.map((item): Printable => {
      if (item.hasError) throw new Error("internal: printFile needs a tree without errors");
      return { range: item.range, print: (inner) => this.graphItem(item, inner) };
    });
    const body = this.list(this.asWrittenWhereSilenced(items, this.directives.pinnedInGraphs), indent + INDENT, { end: graph.range.end });
    return [head, ...body, `${indent}}`];
  }

  private graphItem(item: GraphItem, indent: string): string[] {
    switch (item.kind) {
      case "Envelope":
        return [`${indent}envelope ${item.version.major}.${item.version.minor}`];
      case "Entry":
        return [`${indent}entry ${item.agents.map((a) => a.name).join(", ")}`];
      case "HopLimit":
        return [`${indent}hop_limit ${item.value.kind === "Keyword" ? item.value.value : String(item.value.value)}`];
      case "OnHopLimit":
        return [`${indent}on_hop_limit ${item.action.value}`];
      case "LoopSignature":
        return [`${indent}loop_signature ${paths(item.paths)}`];
      case "Agent":
        return this.agent(item, indent);
      case "Contract":
        return this.contract(item, indent);
      case "Edge":
        return this.edge(item, indent);
    }
  }

  /** `head`, then the block: dropped when empty (unless `keepEmpty`), on one line, or a line per item. */
  private withBlock(head: string, range: Range, items: readonly Printable[], indent: string, keepEmpty = false): string[] {
    // Comments of an item without block items stay with the item (see `list`).
    if (items.length === 0) return [keepEmpty ? `${head} {}` : head];
    if (items.length === 1 && this.noCommentIn(range)) {
      const [line] = (items[0] as Printable).print("");
      const oneLine = `${head} { ${line} }`;
      if (oneLine.length <= MAX_ONE_LINE) return [oneLine];
    }
    const body = this.list(this.asWrittenWhereSilenced(items), indent + INDENT, { end: range.end });
    return [`${head} {`, ...body, `${indent}}`];
  }

  private agent(agent: AgentDecl, indent: string): string[] {
    const items = agent.items.map((item): Printable => {
      if (item.hasError) throw new Error("internal: printFile needs a tree without errors");
      return { range: item.range, print: (inner) => [`${inner}${this.agentItem(item)}`] };
    });
    return this.withBlock(`${indent}agent ${agent.name.name}: ${agent.role.value}`, agent.range, items, indent);
  }

  /** An agent setting: its keyword (`core/settings.ts`), then its value as written. */
  private agentItem(item: AgentItem): string {
    const keyword = settingOfNode(item.kind).keyword;
    switch (item.kind) {
      case "AgentVersion":
      case "Effect":
        return `${keyword} ${this.slice(item.value.range)}`;
      case "Gate":
        return keyword;
      case "Terminal": {
        const outcome = item.outcome === undefined ? "" : ` ${item.outcome.value}`;
        const description = item.description === undefined ? "" : ` ${this.slice(item.description.range)}`;
        return `${keyword} ${item.name.name}${outcome}${description}`;
      }
      case "Join":
        return joinLine(item);
    }
  }

  private contract(contract: ContractDecl, indent: string): string[] {
    const items = contract.requires.map((r): Printable => ({ range: r.range, print: (inner) => [`${inner}${requireLine(r)}`] }));
    return this.withBlock(`${indent}contract ${contract.edgeKind.value}`, contract.range, items, indent, true);
  }

  private edge(edge: EdgeDecl, indent: string): string[] {
    const items = edge.items.map((item): Printable => {
      if (item.hasError) throw new Error("internal: printFile needs a tree without errors");
      return { range: item.range, print: (inner) => [`${inner}${edgeItem(item)}`] };
    });
    const observe = edge.observe === undefined ? "" : " observe";
    const guard = edge.guard === undefined ? "" : ` ${guardText(edge.guard)}`;
    return this.withBlock(`${indent}${edge.edgeKind.value} ${edge.from.name} -> ${edge.to.name}${guard}${observe}`, edge.range, items, indent);
  }

  private slice(range: Range): string {
    return this.source.slice(range.start, range.end);
  }
}

/** `text` (a block comment's, which may span lines) with each CRLF or CR as the LF the printer writes everywhere else. */
function withLineFeeds(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}
/** Whether a graph's first line holds only its head, `graph NAME {` (see {@link Printable}). */
function headOwnsLine(source: string, graph: GraphDecl): boolean {
  if (!/^graph[ \t]+$/.test(source.slice(graph.range.start, graph.name.range.start))) return false;
  HEAD_REST.lastIndex = graph.name.range.end;
  return HEAD_REST.test(source);
}

/** The rest of a graph's head line after its name: its `{` alone. */
const HEAD_REST = /[ \t]*\{[ \t]*(?:\r|\n)/y;

function paths(list: readonly FieldPath[]): string {
  return list.map((p) => p.text).join(", ");
}

function requireLine(decl: RequireDecl): string {
  return `require ${paths(decl.paths)}`;
}

/** An edge setting: its keyword (`core/settings.ts`), then its value. */
function edgeItem(item: Exclude<EdgeItem, { hasError: true }>): string {
  const keyword = settingOfNode(item.kind).keyword;
  switch (item.kind) {
    case "Require":
      return requireLine(item);
    case "MinConfidence":
      return `${keyword} ${item.value.text}${item.decisions.length === 0 ? "" : ` for ${item.decisions.map((d) => d.name).join(", ")}`}`;
    case "Gate":
      return keyword;
    case "FanOut":
      return `${keyword} ${item.name.name}`;
    default:
      return `${keyword} ${item.value.value}`;
  }
}

/** `join all of a, b within 600 seconds otherwise escalate`, the parts not written left out. */
export function joinLine(item: JoinDecl): string {
  const wait = item.wait.kind === "Keyword" ? item.wait.value : String(item.wait.value);
  const within = item.within === undefined ? "" : ` within ${item.within.value} seconds`;
  const otherwise = item.otherwise === undefined ? "" : ` otherwise ${item.otherwise.kind === "Keyword" ? item.otherwise.value : item.otherwise.name}`;
  return `${settingOfNode("Join").keyword} ${wait} of ${item.inputs.map((i) => i.name).join(", ")}${within}${otherwise}`;
}

/** `when a is x, y and b >= 0.8`, or `otherwise`; numbers as written. */
export function guardText(guard: GuardDecl): string {
  if (guard.otherwise) return "otherwise";
  return `when ${guard.conditions.map(conditionText).join(" and ")}`;
}

function conditionText(condition: Condition): string {
  return condition.test === "is"
    ? `${condition.subject.name} is ${condition.values.map((v) => v.name).join(", ")}`
    : `${condition.subject.name} ${condition.operator.value} ${condition.number.text}`;
}

/**
 * Lines in a run of consecutive lines that end in a comment get their comments aligned one space
 * after the longest code of the run (gofmt's rule); a line without one ends the run.
 */
function alignTrailingComments(lines: readonly string[]): string[] {
  const out = [...lines];
  let runStart = 0;
  const flush = (end: number): void => {
    let width = 0;
    for (let i = runStart; i < end; i++) width = Math.max(width, (out[i] as string).indexOf(TRAILING));
    for (let i = runStart; i < end; i++) {
      const line = out[i] as string;
      const at = line.indexOf(TRAILING);
      out[i] = `${line.slice(0, at).padEnd(width)} ${line.slice(at + 1)}`;
    }
  };
  for (let i = 0; i <= out.length; i++) {
    if (i < out.length && (out[i] as string).includes(TRAILING)) continue;
    if (i > runStart) flush(i);
    runStart = i + 1;
  }
  return out;
}
