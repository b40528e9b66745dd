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
 * For each edge, 1 when it has kind `a` and an edge of kind `b` runs the other way
 * (`to[e] -> from[e]`), or kind `b` and an edge of kind `a` runs the other way; 0 otherwise.
 * One grouping of the edges by source and one by target serve both kinds.
 *
 * @param nodes - node ids in `from` and `to` lie in `0 .. nodes - 1`
 * @param kinds - kind of each edge
 * @param a - one kind of a pair (a delegate's)
 * @param b - the other kind (a return's)
 * @param from - source node of each edge
 * @param to - target node of each edge
 */
export function markPaired(nodes: number, kinds: ArrayLike<number>, a: number, b: number, from: ArrayLike<number>, to: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(from.length);
  const bySource = createCompactGraph(nodes, from, to);
  const byTarget = createCompactGraph(nodes, to, from);
  // intoA[x] === v: an edge of kind `a` runs x -> v (stamped while at v); likewise intoB.
  const intoA = new Int32Array(nodes).fill(-1);
  const intoB = new Int32Array(nodes).fill(-1);
  for (let v = 0; v < nodes; v++) {
    for (let s = byTarget.offsets[v] as number; s < (byTarget.offsets[v + 1] as number); s++) {
      const kind = kinds[byTarget.edgeIds[s] as number];
      if (kind === a) intoA[byTarget.targets[s] as number] = v;
      else if (kind === b) intoB[byTarget.targets[s] as number] = v;
    }
    for (let s = bySource.offsets[v] as number; s < (bySource.offsets[v + 1] as number); s++) {
      const e = bySource.edgeIds[s] as number;
      const kind = kinds[e];
      const w = bySource.targets[s] as number;
      if ((kind === a && intoB[w] === v) || (kind === b && intoA[w] === v)) out[e] = 1;
    }
  }
  return out;
}
