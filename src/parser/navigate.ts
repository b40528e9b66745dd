/**
 * Finding things in the tree by position and by name, for editors (hover, completion, go to
 * definition, references, rename, document symbols). Works on any tree `parse()` returns,
 * incomplete nodes included, so it answers while a file is being typed.
 */
import type { Range } from "../core/source-file.js";
import type { AgentDecl, AstNode, GraphDecl, Identifier, Incomplete, SeamFile } from "./ast.js";

/** A node of the tree, whole or as far as the parser got. */
export type AnyNode = AstNode | Incomplete<AstNode>;

function isNode(value: unknown): value is AnyNode {
  return typeof value === "object" && value !== null && "kind" in value && "range" in value;
}

/** The child nodes of `node`, in source order. */
export function childrenOf(node: AnyNode): AnyNode[] {
  const children: AnyNode[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === "range" || key === "comments") continue;
    if (Array.isArray(value)) for (const item of value) if (isNode(item)) children.push(item);
    if (isNode(value)) children.push(value);
  }
  return children.sort((a, b) => a.range.start - b.range.start);
}

/**
 * The nodes that contain `offset`, from the file down to the innermost (a cursor right after a
 * name still counts as in it: `start <= offset <= end`), or `[file]` between nodes. Comments are
 * not part of the path: see {@link commentAt}.
 */
export function nodePathAt(file: SeamFile, offset: number): AnyNode[] {
  const path: AnyNode[] = [file];
  let current: AnyNode = file;
  for (;;) {
    const inner: AnyNode | undefined = childrenOf(current).find((c) => c.range.start <= offset && offset <= c.range.end);
    if (inner === undefined) return path;
    path.push(inner);
    current = inner;
  }
}

/** The comment that contains `offset` (strictly inside: completion is off there), if any. */
export function commentAt(file: SeamFile, offset: number): SeamFile["comments"][number] | undefined {
  return file.comments.find((c) => c.range.start < offset && offset <= c.range.end);
}

/** Where an agent name is declared and everywhere it is used in one graph. */
export interface AgentSymbol {
  readonly name: string;
  /** The name in its first `agent` declaration; undefined for a name only used, never declared. */
  readonly declaration?: Identifier;
  /** Every use: entry lines and edge ends (declarations excluded), in source order. */
  readonly references: readonly Identifier[];
}

/** The whole graphs of a file (a graph without a name has no symbol). */
export function wholeGraphs(file: SeamFile): GraphDecl[] {
  return file.graphs.filter((g): g is GraphDecl => !g.hasError);
}

/**
 * Every agent name of `graph` with its declaration and uses, by name, in order of first
 * appearance. Incomplete declarations count for what they have (`delegate a -> ` uses `a`).
 */
export function agentSymbols(graph: GraphDecl): Map<string, AgentSymbol> {
  const symbols = new Map<string, { name: string; declaration?: Identifier; references: Identifier[] }>();
  const entry = (name: string) => {
    let symbol = symbols.get(name);
    if (symbol === undefined) {
      symbol = { name, references: [] };
      symbols.set(name, symbol);
    }
    return symbol;
  };
  for (const item of graph.items) {
    if (item.kind === "Agent" && item.name !== undefined) {
      const symbol = entry(item.name.name);
      if (symbol.declaration === undefined) symbol.declaration = item.name;
    } else if (item.kind === "Entry") {
      for (const agent of item.agents ?? []) entry(agent.name).references.push(agent);
    } else if (item.kind === "Edge") {
      for (const end of [item.from, item.to]) if (end !== undefined) entry(end.name).references.push(end);
    }
  }
  return symbols;
}

/** The agent declarations of `graph` that the parser completed or named (for document symbols). */
export function agentDeclarations(graph: GraphDecl): (AgentDecl | Incomplete<AgentDecl>)[] {
  return graph.items.filter((i): i is AgentDecl | Incomplete<AgentDecl> => i.kind === "Agent");
}

/** True when `range` contains `offset` (end inclusive, as for a cursor after a name). */
export function touches(range: Range, offset: number): boolean {
  return range.start <= offset && offset <= range.end;
}

/** The node among `nodes` (sorted by offset, not overlapping) whose range holds `range`; binary search. */
export function containingNode<T extends { readonly range: Range }>(nodes: readonly T[], range: Range): T | undefined {
  let lo = 0;
  let hi = nodes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((nodes[mid] as T).range.start <= range.start) lo = mid + 1;
    else hi = mid;
  }
  const node = nodes[lo - 1];
  return node !== undefined && node.range.end >= range.end ? node : undefined;
}
