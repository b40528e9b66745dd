/** Small helpers that rules share for ranges and wording. */
import type { Range } from "../core/source-file.js";
import type { EdgeDecl } from "../parser/ast.js";

/** The range of an edge's header, `transfer a -> b`, without its block. */
export function edgeHeaderRange(edge: EdgeDecl): Range {
  return { start: edge.edgeKind.range.start, end: edge.to.range.end };
}

/** `transfer a -> b`, as written. */
export function describeEdge(edge: EdgeDecl): string {
  return `${edge.edgeKind.value} ${edge.from.name} -> ${edge.to.name}`;
}

/** `'a'`, `'a' and 'b'`, `'a', 'b' and 'c'`; more than `max` names end with "and N more". */
export function listNames(names: readonly string[], max = 6): string {
  const quoted = names.slice(0, max).map((n) => `'${n}'`);
  if (names.length > max) quoted.push(`${names.length - max} more`);
  if (quoted.length <= 1) return quoted.join("");
  return `${quoted.slice(0, -1).join(", ")} and ${quoted[quoted.length - 1]}`;
}

/** `a -> b -> a` for a list of agent ids. */
export function formatWalk(agents: readonly string[]): string {
  return agents.join(" -> ");
}

/** `1 handoff`, `2 handoffs`: a count with its noun in the right number (regular plurals only). */
export function countOf(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
