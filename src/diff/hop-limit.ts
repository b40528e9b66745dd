/** The hop limit of a graph version as its validators enforce it, and how to name it. */
import type { CheckedGraph } from "../analysis/model.js";

/** The cap validators put on `hop.limit`; `Infinity` when the graph has none. */
export function hopLimitValue(graph: CheckedGraph): number {
  return graph.hopLimit.value ?? Infinity;
}

/** `8`, `8 (auto)` or `no limit`. */
export function showHopLimit(graph: CheckedGraph): string {
  const value = graph.hopLimit.value;
  if (value === undefined) return "no limit";
  return graph.hopLimit.declared === undefined ? `${value} (auto)` : String(value);
}
