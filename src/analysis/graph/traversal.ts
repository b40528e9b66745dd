/**
 * Breadth-first traversals over a {@link CompactGraph}: reachability from a set of sources
 * (use the reversed graph for "can reach a target") and shortest walks with their witnesses.
 * All iterative, O(nodes + edges).
 */
import type { CompactGraph } from "./compact-graph.js";

/** A breadth-first search tree from a set of sources. */
export interface SearchTree {
  /** Fewest edges from any source to each node; -1 where unreachable. */
  readonly distance: Int32Array;
  /** Slot (index into `targets`/`edgeIds`) of the tree edge into each node; -1 at sources and unreached nodes. */
  readonly parentSlot: Int32Array;
  /** Tree parent of each node; -1 at sources and unreached nodes. */
  readonly parent: Int32Array;
  /** Nodes in the order they were reached (sources first). */
  readonly order: Int32Array;
}

/**
 * Breadth-first search from every source at once.
 *
 * @param graph - the graph
 * @param sources - start nodes (duplicates are ignored)
 * @param allowed - optional node filter: only nodes with `allowed[v] === 1` are entered
 */
export function breadthFirst(graph: CompactGraph, sources: Iterable<number>, allowed?: Uint8Array): SearchTree {
  const n = graph.size;
  const distance = new Int32Array(n).fill(-1);
  const parent = new Int32Array(n).fill(-1);
  const parentSlot = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  let tail = 0;
  for (const s of sources) {
    if (distance[s] !== -1 || (allowed && allowed[s] !== 1)) continue;
    distance[s] = 0;
    queue[tail++] = s;
  }
  for (let head = 0; head < tail; head++) {
    const v = queue[head] as number;
    const d = (distance[v] as number) + 1;
    for (let s = graph.offsets[v] as number; s < (graph.offsets[v + 1] as number); s++) {
      const w = graph.targets[s] as number;
      if (distance[w] !== -1 || (allowed && allowed[w] !== 1)) continue;
      distance[w] = d;
      parent[w] = v;
      parentSlot[w] = s;
      queue[tail++] = w;
    }
  }
  return { distance, parent, parentSlot, order: queue.slice(0, tail) };
}

/** Marks (1) every node reachable from `sources`, the sources included. */
export function reachableFrom(graph: CompactGraph, sources: Iterable<number>): Uint8Array {
  const { distance } = breadthFirst(graph, sources);
  const reached = new Uint8Array(graph.size);
  for (let v = 0; v < graph.size; v++) if (distance[v] !== -1) reached[v] = 1;
  return reached;
}

/**
 * The node path from a source of `tree` to `node` (both included), following tree parents;
 * empty when `node` was not reached.
 */
export function treePath(tree: SearchTree, node: number): number[] {
  if (tree.distance[node] === -1) return [];
  const path = [node];
  let v = node;
  while (tree.parent[v] !== -1) {
    v = tree.parent[v] as number;
    path.push(v);
  }
  return path.reverse();
}

/**
 * Fewest edges on any walk from a source to a node with `isTarget[v] === 1`, and the target
 * reached; `undefined` when no target is reachable. A source that is a target gives 0.
 */
export function shortestWalk(
  graph: CompactGraph,
  sources: Iterable<number>,
  isTarget: Uint8Array,
): { readonly length: number; readonly target: number; readonly tree: SearchTree } | undefined {
  const tree = breadthFirst(graph, sources);
  // An index loop: see docs/performance.md, "Loops over a large graph".
  for (let i = 0; i < tree.order.length; i++) {
    const v = tree.order[i] as number;
    if (isTarget[v] === 1) return { length: tree.distance[v] as number, target: v, tree };
  }
  return undefined;
}

/**
 * A concrete cycle through `start` inside its strongly connected component: the edge slots of a
 * shortest walk `start -> ... -> start` using only nodes with `component[v] === component[start]`
 * and, when given, only slots with `allowedSlot[s] === 1`. Empty when there is no such cycle.
 */
export function cycleThrough(
  graph: CompactGraph,
  start: number,
  component: Int32Array,
  allowedSlot?: Uint8Array,
): number[] {
  const c = component[start];
  // Parents are kept in a map: the search only touches one component, which may be small in a
  // very large graph, so per-call arrays of graph size would make repeated witnesses quadratic.
  const parentSlot = new Map<number, number>();
  const parentNode = new Map<number, number>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head] as number;
    for (let s = graph.offsets[v] as number; s < (graph.offsets[v + 1] as number); s++) {
      if (allowedSlot && allowedSlot[s] !== 1) continue;
      const w = graph.targets[s] as number;
      if (component[w] !== c) continue;
      if (w === start) {
        const slots = [s];
        let u = v;
        while (u !== start) {
          slots.push(parentSlot.get(u) as number);
          u = parentNode.get(u) as number;
        }
        return slots.reverse();
      }
      if (parentSlot.has(w)) continue;
      parentSlot.set(w, s);
      parentNode.set(w, v);
      queue.push(w);
    }
  }
  return [];
}
