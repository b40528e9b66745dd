/**
 * A compact directed multigraph in compressed sparse row (CSR) form: the out-edges of node `v`
 * are `targets[offsets[v] .. offsets[v + 1])`, and `edgeIds` carries, slot for slot, the index of
 * the edge in the caller's own edge list (so a rule can point at the edge declaration).
 *
 * Why not @dagrejs/graphlib, the designated graph library: measured on this machine its
 * traversals (`alg.tarjan`, `alg.findCycles`, `alg.preorder`, `alg.topsort`) recurse once per
 * node on a path and overflow the stack past ~2,200 agents in a chain, and building a
 * `Graph` of 10^6 edges takes ~12 s (string-keyed objects per edge). Typed arrays build in
 * linear time and every algorithm in this folder is iterative with explicit stacks, so a
 * 10^5-agent graph checks without recursion. graphlib stays the oracle in the tests.
 */

/** A directed multigraph over nodes `0 .. size - 1` in CSR form. */
export interface CompactGraph {
  /** Number of nodes. */
  readonly size: number;
  /** Length `size + 1`; out-edges of `v` occupy slots `offsets[v]` to `offsets[v + 1] - 1`. */
  readonly offsets: Int32Array;
  /** Target node of each slot. */
  readonly targets: Int32Array;
  /** Caller's edge index of each slot (position in the `from`/`to` arrays given to the builder). */
  readonly edgeIds: Int32Array;
}

/**
 * Builds a {@link CompactGraph} by counting sort, O(size + edges). Out-edges of a node keep the
 * order of the input, so every traversal is deterministic.
 *
 * @param size - number of nodes
 * @param from - source node of each edge (`0 <= from[i] < size`)
 * @param to - target node of each edge, same length as `from`
 * @param keep - optional filter: edge `i` is included only when `keep(i)` is true
 * @throws RangeError when an endpoint lies outside `0 .. size - 1` (a bug in the caller)
 */
export function createCompactGraph(
  size: number,
  from: ArrayLike<number>,
  to: ArrayLike<number>,
  keep?: (edge: number) => boolean,
): CompactGraph {
  const offsets = new Int32Array(size + 1);
  let count = 0;
  for (let i = 0; i < from.length; i++) {
    if (keep && !keep(i)) continue;
    const a = from[i] as number;
    const b = to[i] as number;
    if (!(a >= 0 && a < size && b >= 0 && b < size)) {
      throw new RangeError(`internal: edge ${i} (${a} -> ${b}) is outside a graph of ${size} nodes`);
    }
    offsets[a + 1] = (offsets[a + 1] as number) + 1;
    count++;
  }
  for (let v = 0; v < size; v++) offsets[v + 1] = (offsets[v + 1] as number) + (offsets[v] as number);
  const targets = new Int32Array(count);
  const edgeIds = new Int32Array(count);
  const fill = offsets.slice(0, size);
  for (let i = 0; i < from.length; i++) {
    if (keep && !keep(i)) continue;
    const a = from[i] as number;
    const slot = fill[a] as number;
    fill[a] = slot + 1;
    targets[slot] = to[i] as number;
    edgeIds[slot] = i;
  }
  return { size, offsets, targets, edgeIds };
}

/** The same graph with every edge turned around; `edgeIds` still name the original edges. */
export function reverseGraph(graph: CompactGraph): CompactGraph {
  const m = graph.targets.length;
  const from = new Int32Array(m);
  const to = new Int32Array(m);
  const ids = new Int32Array(m);
  for (let v = 0; v < graph.size; v++) {
    for (let s = graph.offsets[v] as number; s < (graph.offsets[v + 1] as number); s++) {
      from[s] = graph.targets[s] as number;
      to[s] = v;
      ids[s] = graph.edgeIds[s] as number;
    }
  }
  const reversed = createCompactGraph(graph.size, from, to);
  // The builder numbered edges by slot; map them back to the caller's edge ids.
  const edgeIds = new Int32Array(m);
  for (let s = 0; s < m; s++) edgeIds[s] = ids[reversed.edgeIds[s] as number] as number;
  return { size: graph.size, offsets: reversed.offsets, targets: reversed.targets, edgeIds };
}
