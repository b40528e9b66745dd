/**
 * `textDocument/completion` from the grammar: Chevrotain's content assist on the grammar
 * specification (`nextTokens`) says which tokens may come next, as Langium derives completion
 * from its grammar's follow elements. Keywords are offered as the grammar lists them, so a new
 * keyword or setting needs no edit here; the other tokens are filled in from what they stand
 * for: agent names where an edge or `entry` names an agent, envelope field paths in a field path,
 * guard subjects and their values (the statuses) in a guard.
 *
 * Content assist needs a valid beginning of a file, which a file being typed often is not. The
 * tokens given to it are the headers of the blocks that hold the cursor (`graph g {`,
 * `delegate a -> b {`) and the tokens of the item the cursor is in, from its first token: items
 * are found in the parser's tree, which keeps half-written ones. When those tokens do not parse
 * either, the statements of the enclosing block are offered.
 */
import { CompletionItemKind, type CompletionItem, type Range as LspRange } from "vscode-languageserver/node";
import { describeField, listFieldPaths, splitFieldPath } from "../analysis/field-paths.js";
import type { Range } from "../core/source-file.js";
import { GUARD_SUBJECTS, GUARD_SUBJECT_NAMES } from "../core/vocabulary.js";
import { settingOfKeyword } from "../core/settings.js";
import { firstTokenFrom, nextTokens, ROLES, type Analysis, type NextToken, type Token } from "./front-end.js";
import { toLspRange } from "./positions.js";

const fieldPaths = listFieldPaths();

/** Rules whose keywords are values (an enumeration) rather than statements. */
const VALUE_RULES: ReadonlySet<string> = new Set(["role", "outcome", "hopLimitAction", "hopLimitDecl"]);

/**
 * What the grammar accepts after the first `count` tokens of a document. {@link completionsAt}
 * asks content assist about the enclosing blocks' headers and the cursor's item only; the tests
 * pass content assist over every token from the start of the document and compare.
 */
export type ExpectedTokens = (analysis: Analysis, count: number) => NextToken[];

/**
 * The completions at `offset`, in a fixed order (`sortText`), each replacing the word being typed.
 *
 * @param expected - what the grammar accepts next (default: content assist from the enclosing item, see the file comment)
 */
export function completionsAt(analysis: Analysis, offset: number, expected: ExpectedTokens = expectedAt): CompletionItem[] {
  const { tokens } = analysis;
  const { text } = analysis.file;
  if (analysis.comments.some((c) => c.start < offset && offset <= c.end)) return [];
  // Tokens wholly before the cursor; the last one is the word being typed when the cursor touches it.
  let count = firstTokenFrom(tokens, offset);
  const last = tokens[count - 1];
  if (last !== undefined && last.kind === "string" && offset < last.end) return [];
  if (last !== undefined && last.kind === "string" && offset === last.end && !isClosedString(text, last)) return [];
  let typed: Range = { start: offset, end: offset };
  if (last !== undefined && last.end >= offset && (last.kind === "identifier" || last.kind === "keyword" || last.kind === "number")) {
    typed = { start: last.start, end: offset };
    count--;
  }
  // One LSP range for every item (a thousand agents share it), made once `typed` is final.
  let range: LspRange | undefined;
  const editRange = (): LspRange => (range ??= toLspRange(analysis.file, typed));
  const items: CompletionItem[] = [];
  const labels = new Set<string>();
  const add = (label: string, kind: CompletionItemKind, extra: Partial<CompletionItem> = {}): void => {
    if (labels.has(label)) return;
    labels.add(label);
    items.push({ label, kind, sortText: String(items.length).padStart(4, "0"), textEdit: { range: editRange(), newText: label }, ...extra });
  };

  // A field path being typed runs back over adjacent `.`, `[]` and words.
  let pathStart = count;
  const startOf = (i: number): number => (i === count ? typed.start : (tokens[i] as Token).start);
  while (pathStart > 0 && isPathPart(tokens[pathStart - 1]) && (tokens[pathStart - 1] as Token).end === startOf(pathStart)) pathStart--;
  if (pathStart < count) {
    const atPath = expected(analysis, pathStart);
    if (atPath.some((n) => n.rules[n.rules.length - 1] === "fieldPath")) {
      typed = { start: (tokens[pathStart] as Token).start, end: offset };
      for (const path of fieldItems(text.slice(typed.start, offset))) addField(add, path);
      return items;
    }
  }

  for (const next of expected(analysis, count)) {
    const rule = next.rules[next.rules.length - 1] ?? "";
    if (next.keyword !== undefined) {
      const enumerated = VALUE_RULES.has(rule) || (rule === "edgeKind" && next.rules.includes("contractDecl"));
      add(next.keyword, enumerated ? CompletionItemKind.EnumMember : CompletionItemKind.Keyword, settingDocs(next));
    } else if (rule === "fieldPath") {
      for (const path of fieldItems("")) addField(add, path);
    } else if (next.type === "Identifier" && (rule === "entryDecl" || rule === "edgeDecl")) {
      // After `a ->`, not `a` itself: an edge from an agent to itself is an error (self-handoff).
      const source = sourceBeforeArrow(tokens, text, count);
      for (const agent of agentsOfGraph(tokens, text, graphOpenBefore(tokens, count))) {
        if (agent.name !== source) add(agent.name, CompletionItemKind.Class, agent.role ? { detail: agent.role } : {});
      }
    } else if (next.type === "Identifier" && rule === "condition") {
      for (const subject of GUARD_SUBJECT_NAMES) add(subject, CompletionItemKind.Field);
    } else if (next.type === "Name" && rule === "condition") {
      const subject = guardSubjectBefore(analysis, count);
      const values: readonly string[] = (subject === undefined ? undefined : GUARD_SUBJECTS[subject as keyof typeof GUARD_SUBJECTS]?.values) ?? [];
      for (const value of values) add(value, CompletionItemKind.EnumMember);
    }
  }
  return items;
}

/** The name before the arrow that is the last of the first `count` tokens (`a` of `delegate a ->`), or undefined. */
function sourceBeforeArrow(tokens: readonly Token[], text: string, count: number): string | undefined {
  const arrow = tokens[count - 1];
  const name = tokens[count - 2];
  return arrow?.kind === "arrow" && name?.kind === "identifier" ? text.slice(name.start, name.end) : undefined;
}

/** The one-line summary of a setting keyword (`core/settings.ts`) as the item's detail. */
function settingDocs(next: NextToken): Partial<CompletionItem> {
  const block = next.rules.includes("agentDecl") ? "agent" : next.rules.includes("edgeDecl") ? "edge" : undefined;
  const spec = block === undefined || next.keyword === undefined ? undefined : settingOfKeyword(block, next.keyword);
  return spec === undefined ? {} : { detail: spec.summary };
}

function addField(add: (label: string, kind: CompletionItemKind, extra?: Partial<CompletionItem>) => void, path: string): void {
  const info = describeField(splitFieldPath(path));
  add(path, CompletionItemKind.Field, {
    ...(info ? { detail: info.type } : {}),
    ...(info?.description ? { documentation: info.description } : {}),
  });
}

/**
 * What the grammar accepts after the first `count` tokens: content assist on the headers of the
 * enclosing blocks and the item the cursor is in (see the file comment), else on the headers alone.
 */
function expectedAt(analysis: Analysis, count: number): NextToken[] {
  const { headers, item } = contextTokens(analysis, count);
  const full = nextTokens(analysis, [...headers, ...item]);
  return full.length > 0 || item.length === 0 ? full : nextTokens(analysis, headers);
}

/** The token indices of the open blocks' headers (each up to its `{`) and of the current item up to `count`. */
function contextTokens(analysis: Analysis, count: number): { headers: number[]; item: number[] } {
  const { tokens } = analysis;
  const starts = itemStarts(analysis);
  // Per depth: the first token of the latest item begun there.
  const itemAt: number[] = [-1];
  const frames: { header: number; open: number }[] = [];
  // `starts` ascends, as the tokens do: one pass over both.
  let next = 0;
  for (let i = 0; i < count; i++) {
    const token = tokens[i] as Token;
    const depth = frames.length;
    while (next < starts.length && (starts[next] as number) < token.start) next++;
    if (starts[next] === token.start) itemAt[depth] = i;
    if (token.text === "{") {
      frames.push({ header: itemAt[depth] ?? -1, open: i });
      itemAt[depth + 1] = -1;
    } else if (token.text === "}" && frames.length > 0) {
      frames.pop();
    }
  }
  const headers: number[] = [];
  for (const frame of frames) {
    if (frame.header < 0) return { headers: [], item: [] };
    for (let i = frame.header; i <= frame.open; i++) headers.push(i);
  }
  const first = itemAt[frames.length] ?? -1;
  const item: number[] = [];
  if (first >= 0) for (let i = first; i < count; i++) item.push(i);
  return { headers, item };
}

/**
 * The start offsets of every item the parser read, at every level (graphs, their items, block
 * items), in ascending order (the tree's order already is, unless recovery made it otherwise).
 */
function itemStarts(analysis: Analysis): number[] {
  const starts: number[] = [];
  if (analysis.ast.languageVersion !== undefined) starts.push(analysis.ast.languageVersion.range.start);
  for (const graph of analysis.ast.graphs) {
    starts.push(graph.range.start);
    for (const item of graph.items ?? []) {
      starts.push(item.range.start);
      const inner = item.kind === "Agent" || item.kind === "Edge" ? item.items : item.kind === "Contract" ? item.requires : undefined;
      for (const child of inner ?? []) starts.push(child.range.start);
    }
  }
  for (let i = 1; i < starts.length; i++) if ((starts[i] as number) < (starts[i - 1] as number)) return starts.sort((a, b) => a - b);
  return starts;
}

/** The subject of the guard condition the cursor is in: the name after the last `when` or `and`. */
function guardSubjectBefore(analysis: Analysis, count: number): string | undefined {
  for (let i = count - 1; i > 0; i--) {
    const token = analysis.tokens[i - 1] as Token;
    if (token.text === "when" || token.text === "and") {
      const subject = analysis.tokens[i] as Token;
      return subject.kind === "identifier" ? analysis.file.text.slice(subject.start, subject.end) : undefined;
    }
  }
  return undefined;
}

/** Paths of the envelope that continue what is typed up to its last `.` or `[]`, in schema order. */
function fieldItems(typed: string): string[] {
  const cut = Math.max(typed.lastIndexOf("."), typed.lastIndexOf("]"));
  const prefix = typed.slice(0, cut + 1);
  return fieldPaths.filter((p) => p.startsWith(prefix) && p.length > prefix.length);
}

function isPathPart(token: Token | undefined): boolean {
  return token !== undefined && (token.kind === "identifier" || token.kind === "keyword" || token.text === "." || token.text === "[]");
}

function isClosedString(text: string, token: Token): boolean {
  return token.end - token.start >= 2 && text[token.end - 1] === '"';
}

/** Index of the `{` of the graph block the first `count` tokens leave open, or -1. */
function graphOpenBefore(tokens: readonly Token[], count: number): number {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < count; i++) {
    const token = tokens[i] as Token;
    if (token.text === "{") {
      if (depth === 0) open = i;
      depth++;
    } else if (token.text === "}") {
      depth = Math.max(0, depth - 1);
      if (depth === 0) open = -1;
    }
  }
  return open;
}

/** The agents declared in the graph block opened at `open` (`agent name: role`), in source order, each once. */
function agentsOfGraph(tokens: readonly Token[], text: string, open: number): { name: string; role?: string }[] {
  if (open < 0) return [];
  const found = new Map<string, string | undefined>();
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.text === "{") depth++;
    else if (token.text === "}" && --depth === 0) break;
    else if (token.text === "agent" && depth === 1 && tokens[i + 1]?.kind === "identifier") {
      const name = tokens[i + 1] as Token;
      const written = tokens[i + 2]?.text === ":" ? tokens[i + 3]?.text : undefined;
      const role = written !== undefined && (ROLES as readonly string[]).includes(written) ? written : undefined;
      const id = text.slice(name.start, name.end);
      if (!found.has(id)) found.set(id, role);
    }
  }
  return [...found].map(([name, role]) => (role === undefined ? { name } : { name, role }));
}
