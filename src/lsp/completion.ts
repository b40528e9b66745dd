/**
 * `textDocument/completion` in context: what the grammar allows at the cursor, read from the
 * tokens before it (so it works in a half-written line the parser could not place): statement
 * keywords of the enclosing block, agent names after `entry` and around `->`, envelope field
 * paths in `require` and `loop_signature`, roles after `agent x:`, outcomes after `terminal x`,
 * edge kinds after `contract`, the values of `hop_limit` and `on_hop_limit`.
 */
import { CompletionItemKind, type CompletionItem, type Range as LspRange } from "vscode-languageserver/node";
import { describeField, listFieldPaths, splitFieldPath } from "../analysis/field-paths.js";
import type { Range } from "../core/source-file.js";
import { EDGE_KINDS, firstTokenFrom, HOP_LIMIT_ACTIONS, OUTCOMES, ROLES, type Analysis, type Token } from "./front-end.js";
import { toLspRange } from "./positions.js";

type Block = "file" | "graph" | "agent" | "edge" | "contract" | "other";

const STATEMENTS: Readonly<Record<Block, readonly string[]>> = {
  file: ["seam", "graph"],
  graph: ["envelope", "entry", "hop_limit", "on_hop_limit", "loop_signature", "agent", "contract", ...EDGE_KINDS],
  agent: ["terminal", "version"],
  edge: ["require", "max_rounds"],
  contract: ["require"],
  other: [],
};
const isEdgeKind = (word: string): boolean => (EDGE_KINDS as readonly string[]).includes(word);
const STATEMENT_WORDS: ReadonlySet<string> = new Set(Object.values(STATEMENTS).flat());

const fieldPaths = listFieldPaths();

/** The completions at `offset`, in a fixed order (`sortText`), each replacing the word being typed. */
export function completionsAt(analysis: Analysis, offset: number): CompletionItem[] {
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
  const context = readContext(tokens, count);
  // One LSP range for every item (a thousand agents share it), made once `typed` is final.
  let range: LspRange | undefined;
  const editRange = (): LspRange => (range ??= toLspRange(analysis.file, typed));
  const item = (label: string, kind: CompletionItemKind, i: number, extra: Partial<CompletionItem> = {}): CompletionItem => ({
    label,
    kind,
    sortText: String(i).padStart(4, "0"),
    textEdit: { range: editRange(), newText: label },
    ...extra,
  });
  const keywords = (words: readonly string[], kind: CompletionItemKind = CompletionItemKind.Keyword): CompletionItem[] => words.map((w, i) => item(w, kind, i));
  const statements = (): CompletionItem[] => keywords(STATEMENTS[context.block]);
  const agents = (): CompletionItem[] =>
    agentsOfGraph(tokens, text, context.graphOpen).map((a, i) => item(a.name, CompletionItemKind.Class, i, a.role ? { detail: a.role } : {}));
  const { statement, after } = context;
  const lastAfter = after[after.length - 1];
  switch (statement) {
    case undefined:
      return statements();
    case "seam":
    case "envelope":
    case "version":
    case "max_rounds":
    case "graph":
      return after.length === 0 ? [] : statements();
    case "entry":
      return after.length === 0 || lastAfter?.text === "," ? agents() : statements();
    case "hop_limit":
      return after.length === 0 ? keywords(["auto"], CompletionItemKind.EnumMember) : statements();
    case "on_hop_limit":
      return after.length === 0 ? keywords(HOP_LIMIT_ACTIONS, CompletionItemKind.EnumMember) : statements();
    case "require":
    case "loop_signature": {
      // A path being typed runs back over adjacent `.`, `[]` and words.
      let start = count;
      const startOf = (i: number): number => (i === count ? typed.start : (tokens[i] as Token).start);
      while (start > context.statementIndex + 1 && isPathPart(tokens[start - 1]) && (tokens[start - 1] as Token).end === startOf(start)) start--;
      const pathStart = start < count ? (tokens[start] as Token).start : typed.start;
      if (start === count && !(after.length === 0 || lastAfter?.text === ",")) return statements();
      typed = { start: pathStart, end: offset };
      return fieldItems(text.slice(pathStart, offset)).map((path, i) => {
        const info = describeField(splitFieldPath(path));
        return item(path, CompletionItemKind.Field, i, {
          ...(info ? { detail: info.type } : {}),
          ...(info?.description ? { documentation: info.description } : {}),
        });
      });
    }
    case "agent":
      if (after.length === 2 && lastAfter?.text === ":") return keywords(ROLES, CompletionItemKind.EnumMember);
      return after.length >= 3 ? statements() : [];
    case "terminal":
      if (after.length === 1) return [...keywords(OUTCOMES, CompletionItemKind.EnumMember), ...statements().map(shift(3))];
      return after.length >= 2 ? statements() : [];
    case "contract":
      return after.length === 0 ? keywords(EDGE_KINDS, CompletionItemKind.EnumMember) : [];
    default:
      // An edge: `kind from -> to observe?`.
      if (after.length === 0 || (after.length === 2 && lastAfter?.kind === "arrow")) return agents();
      if (after.length === 3) return [item("observe", CompletionItemKind.Keyword, 0), ...statements().map(shift(1))];
      return after.length >= 4 ? statements() : [];
  }
}

/** Moves items after `n` others in the fixed order. */
function shift(n: number): (item: CompletionItem) => CompletionItem {
  return (item) => ({ ...item, sortText: String(Number(item.sortText) + n).padStart(4, "0") });
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

interface Context {
  readonly block: Block;
  /** The keyword that starts the statement the cursor is in, when there is one. */
  readonly statement?: string;
  /** Index of that keyword in the tokens. */
  readonly statementIndex: number;
  /** The statement's tokens after its keyword, up to the cursor (the word being typed excluded). */
  readonly after: readonly Token[];
  /** Index of the `{` of the enclosing graph block, or -1. */
  readonly graphOpen: number;
}

/** Reads the block and statement that the first `count` tokens leave the cursor in. */
function readContext(tokens: readonly Token[], count: number): Context {
  const blocks: Block[] = [];
  let graphOpen = -1;
  let statement: string | undefined;
  let statementIndex = -1;
  for (let i = 0; i < count; i++) {
    const token = tokens[i] as Token;
    const previous = tokens[i - 1];
    if (token.text === "{") {
      const block = blockOf(statement);
      if (block === "graph" && blocks.length === 0) graphOpen = i;
      blocks.push(block);
      statement = undefined;
    } else if (token.text === "}") {
      blocks.pop();
      if (blocks.length === 0) graphOpen = -1;
      statement = undefined;
    } else if (token.kind === "keyword" && STATEMENT_WORDS.has(token.text) && previous?.text !== "." && !(previous?.text === "contract" && isEdgeKind(token.text))) {
      statement = token.text;
      statementIndex = i;
    }
  }
  const block = blocks[blocks.length - 1] ?? "file";
  return statement === undefined
    ? { block, statementIndex: -1, after: [], graphOpen }
    : { block, statement, statementIndex, after: tokens.slice(statementIndex + 1, count), graphOpen };
}

function blockOf(statement: string | undefined): Block {
  if (statement === "graph" || statement === "agent" || statement === "contract") return statement;
  return statement !== undefined && isEdgeKind(statement) ? "edge" : "other";
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
