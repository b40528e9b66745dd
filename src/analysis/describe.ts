/** Small helpers that rules share for ranges and wording. */
import { boundName } from "../core/diagnostic.js";
import type { Range } from "../core/source-file.js";
import type { EdgeDecl } from "../parser/ast.js";

/** The range of an edge's header, `transfer a -> b`, without its block. */
export function edgeHeaderRange(edge: EdgeDecl): Range {
  return { start: edge.edgeKind.range.start, end: edge.to.range.end };
}

/** `transfer a -> b`, as written. */
export function describeEdge(edge: EdgeDecl): string {
  return `${edge.edgeKind.value} ${boundName(edge.from.name)} -> ${boundName(edge.to.name)}`;
}

/** `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`; more than `max` names end with "and N more". */
export function listNames(names: readonly string[], max = 6): string {
  const quoted = names.slice(0, max).map((n) => `'${n}'`);
  if (names.length > max) quoted.push(`${names.length - max} more`);
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
}

/** Most related locations one diagnostic lists; its message gives the totals. */
export const MAX_RELATED = 50;

/** Most agents a walk shows whole; a longer one keeps its first and last few. */
export const MAX_WALK_AGENTS = 12;

/**
 * `a -> b -> a` for a list of agent ids. A walk of more than {@link MAX_WALK_AGENTS} agents is
 * shortened in the middle, `a -> b -> c -> ... (9,995 more) ... -> x -> y -> z`, so a trap of
 * 10^4 agents reads as one line; the diagnostic's `path` keeps the whole walk.
 */
export function formatWalk(agents: readonly string[]): string {
  return shortenedJoin(agents.map(boundName), " -> ", "more");
}

/**
 * The edges of a walk as written, `return s -> w, return w -> s`: the exact edges a finding is
 * about, since two agents may be joined by edges of several kinds. Shortened in the middle like
 * {@link formatWalk}.
 */
export function formatEdges(edges: readonly EdgeDecl[]): string {
  return shortenedJoin(edges.map(describeEdge), ", ", "more edges");
}

function shortenedJoin(items: readonly string[], separator: string, noun: string): string {
  if (items.length <= MAX_WALK_AGENTS) return items.join(separator);
  const keep = MAX_WALK_AGENTS / 2;
  const left = items.length - 2 * keep;
  return `${items.slice(0, keep).join(separator)}${separator}... (${left.toLocaleString("en-US")} ${noun}) ...${separator}${items.slice(-keep).join(separator)}`;
}

/** `1 handoff`, `2 handoffs`: a count with its noun in the right number (regular plurals only). */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
