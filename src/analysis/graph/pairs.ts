/**
 * Pair lookups over edge lists without hashing: "was this (kind, from, to) declared before?" and
 * "does an edge run the other way?". Both group the edges by one endpoint (counting sort, via
 * {@link createCompactGraph}) and stamp the other endpoint in a typed array per group, so they run
 * in O(nodes + edges). Why not a `Set` of numeric keys: a key like `(kind * n + from) * n + to`
 * leaves the small-integer range past ~46,000 agents, and hashing 4 * 10^5 such heap numbers
 * cost ~0.2 s when measured, against a few ms here.
 */
import { createCompactGraph } from "./compact-graph.js";

/**
 * For each item `i` (an edge with a kind), the index of the first item with the same kind, source
 * and target: `i` itself for a first occurrence.
 *
 * @param nodes - node ids in `from` and `to` lie in `0 .. nodes - 1`
 * @param kinds - kind of each item, `0 .. kindCount - 1`
 * @param from - source node of each item
 * @param to - target node of each item
 */
export function firstOccurrences(
  nodes: number,
  kindCount: number,
  kinds: ArrayLike<number>,
  from: ArrayLike<number>,
  to: ArrayLike<number>,
): Int32Array {
  const first = new Int32Array(from.length);
  // Out-edges of a node keep the input order, so the first one met per key is the earliest.
  const bySource = createCompactGraph(nodes, from, to);
  const owner = new Int32Array(kindCount * nodes).fill(-1);
  const firstAt = new Int32Array(kindCount * nodes);
  for (let v = 0; v < nodes; v++) {
    for (let s = bySource.offsets[v] as number; s < (bySource.offsets[v + 1] as number); s++) {
      const i = bySource.edgeIds[s] as number;
      const key = (kinds[i] as number) * nodes + (bySource.targets[s] as number);
      if (owner[key] === v) {
        first[i] = firstAt[key] as number;
      } else {
        owner[key] = v;
        firstAt[key] = i;
        first[i] = i;
      }
    }
  }
  return first;
}

/**
 * Marks (sets `out[e] = 1` for) every edge `e` with `isQuery(e)` for which some edge `p` with
 * `isPartner(p)` runs the other way, `to[e] -> from[e]`. Other entries of `out` are left alone,
 * so several calls can fill one array.
 */
export function markReversed(
  nodes: number,
  from: ArrayLike<number>,
  to: ArrayLike<number>,
  isQuery: (edge: number) => boolean,
  isPartner: (edge: number) => boolean,
  out: Uint8Array,
): void {
  const queries = createCompactGraph(nodes, from, to, isQuery);
  // Partners grouped by their target: the partners of queries leaving v all end at v.
  const partnersInto = createCompactGraph(nodes, to, from, isPartner);
  const stamp = new Int32Array(nodes).fill(-1);
  for (let v = 0; v < nodes; v++) {
    for (let s = partnersInto.offsets[v] as number; s < (partnersInto.offsets[v + 1] as number); s++) {
      stamp[partnersInto.targets[s] as number] = v;
    }
    for (let s = queries.offsets[v] as number; s < (queries.offsets[v + 1] as number); s++) {
      if (stamp[queries.targets[s] as number] === v) out[queries.edgeIds[s] as number] = 1;
    }
  }
}
