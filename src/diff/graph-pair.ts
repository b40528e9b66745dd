/**
 * The two versions of one graph, matched item by item: agents by id, edges by (kind, from, to),
 * and an edge whose kind alone changed by (from, to). Matching is on the checked model, so the
 * order, layout and comments of the source never matter.
 */
import type { CheckedAgent, CheckedEdge, CheckedGraph } from "../analysis/model.js";
import type { SourceFile } from "../core/source-file.js";

/** One version of a graph and the file it came from. */
export interface GraphSide {
  readonly file: SourceFile;
  readonly graph: CheckedGraph;
  readonly agents: ReadonlyMap<string, CheckedAgent>;
}

/** An edge present in both versions (its kind may differ). */
export interface EdgeMatch {
  readonly old: CheckedEdge;
  readonly new: CheckedEdge;
}

/** Two versions of a graph of the same name. */
export interface GraphPair {
  readonly old: GraphSide;
  readonly new: GraphSide;
  /** Agents in both versions, by id, in the new version's order. */
  readonly keptAgents: readonly { readonly old: CheckedAgent; readonly new: CheckedAgent }[];
  readonly removedAgents: readonly CheckedAgent[];
  readonly addedAgents: readonly CheckedAgent[];
  readonly keptEdges: readonly EdgeMatch[];
  /** Old edges with no match whose endpoints both still exist (a removed agent's edges go with it). */
  readonly removedEdges: readonly CheckedEdge[];
  readonly addedEdges: readonly CheckedEdge[];
}

/** Builds a {@link GraphSide}. */
export function graphSide(file: SourceFile, graph: CheckedGraph): GraphSide {
  return { file, graph, agents: new Map(graph.agents.map((agent) => [agent.id, agent])) };
}

/** `kind from to`: an edge's identity (the checker refuses two edges with the same one). */
export function edgeKey(edge: Pick<CheckedEdge, "kind" | "from" | "to">): string {
  return `${edge.kind} ${edge.from} ${edge.to}`;
}

function pairKey(edge: CheckedEdge): string {
  return `${edge.from} ${edge.to}`;
}

/** Matches the items of two versions of a graph. Linear in their size. */
export function matchGraphs(old: GraphSide, next: GraphSide): GraphPair {
  const keptAgents = next.graph.agents.flatMap((agent) => {
    const before = old.agents.get(agent.id);
    return before === undefined ? [] : [{ old: before, new: agent }];
  });
  const removedAgents = old.graph.agents.filter((agent) => !next.agents.has(agent.id));
  const addedAgents = next.graph.agents.filter((agent) => !old.agents.has(agent.id));

  const oldByKey = new Map(old.graph.edges.map((edge) => [edgeKey(edge), edge]));
  const keptEdges: EdgeMatch[] = [];
  const unmatchedNew: CheckedEdge[] = [];
  for (const edge of next.graph.edges) {
    const before = oldByKey.get(edgeKey(edge));
    if (before === undefined) unmatchedNew.push(edge);
    else {
      keptEdges.push({ old: before, new: edge });
      oldByKey.delete(edgeKey(edge));
    }
  }
  // What is left on both sides between the same two agents, one edge each: the kind changed.
  const leftOld = groupByPair([...oldByKey.values()]);
  const leftNew = groupByPair(unmatchedNew);
  const addedEdges: CheckedEdge[] = [];
  for (const edge of unmatchedNew) {
    const before = leftOld.get(pairKey(edge));
    if (before?.length === 1 && leftNew.get(pairKey(edge))?.length === 1) {
      keptEdges.push({ old: before[0] as CheckedEdge, new: edge });
      oldByKey.delete(edgeKey(before[0] as CheckedEdge));
    } else addedEdges.push(edge);
  }
  const removedEdges = [...oldByKey.values()].filter((edge) => next.agents.has(edge.from) && next.agents.has(edge.to));
  keptEdges.sort((a, b) => a.new.index - b.new.index);
  return { old, new: next, keptAgents, removedAgents, addedAgents, keptEdges, removedEdges, addedEdges };
}

function groupByPair(edges: readonly CheckedEdge[]): Map<string, CheckedEdge[]> {
  const groups = new Map<string, CheckedEdge[]>();
  for (const edge of edges) {
    const list = groups.get(pairKey(edge));
    if (list === undefined) groups.set(pairKey(edge), [edge]);
    else list.push(edge);
  }
  return groups;
}

/**
 * How often a task may go from `from` to `to` in total, as `accept()` counts it: the sum of the
 * `max_rounds` of the edges between them, or `Infinity` when one of them is unbounded.
 */
export function pairRounds(graph: CheckedGraph, from: string, to: string): number {
  let total = 0;
  for (const edge of graph.edges) {
    if (edge.from === from && edge.to === to) total += edge.maxRounds ?? Infinity;
  }
  return total;
}
