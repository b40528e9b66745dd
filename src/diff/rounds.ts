/**
 * The round limits of the edges kept between two graph versions, per pair of agents, as
 * `accept()` counts them (every agent counts, in `hop.path`, how often each pair was taken).
 */
import type { CheckedEdge } from "../analysis/model.js";
import { pairRounds, type GraphPair } from "./graph-pair.js";

/** One pair of agents whose total `max_rounds` differs between the versions. */
export interface RoundsChange {
  /** The first edge of the pair in the new graph. */
  readonly edge: CheckedEdge;
  /** Old and new totals; `Infinity` when unbounded. */
  readonly old: number;
  readonly new: number;
}

/** The pairs whose round limit changed, in the new graph's edge order. */
export function roundsChanges(pair: GraphPair): RoundsChange[] {
  const seen = new Set<string>();
  const changes: RoundsChange[] = [];
  for (const { new: edge } of pair.keptEdges) {
    const key = `${edge.from} ${edge.to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const old = pairRounds(pair.old.graph, edge.from, edge.to);
    const next = pairRounds(pair.new.graph, edge.from, edge.to);
    if (old !== next) changes.push({ edge, old, new: next });
  }
  return changes;
}

/** `3`, or `no limit` for `Infinity`. */
export function showLimit(value: number): string {
  return value === Infinity ? "no limit" : String(value);
}
