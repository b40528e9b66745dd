/**
 * Strongly connected components by Tarjan's algorithm (1972), written with an explicit stack so
 * that a path of 10^5 agents does not overflow the call stack (see `compact-graph.ts`).
 */
import type { CompactGraph } from "./compact-graph.js";

/** The strongly connected components of a graph. */
export interface Components {
  /** Number of components. */
  readonly count: number;
  /**
   * Component of each node. Components are numbered in the order Tarjan completes them, which
   * is a reverse topological order of the condensation: every edge between two components goes
   * from a higher number to a lower one (sinks first).
   */
  readonly component: Int32Array;
  /** True for a component that contains a cycle: more than one node, or a node with a self-loop. */
  readonly cyclic: Uint8Array;
}

/** Computes the strongly connected components of `graph` in O(nodes + edges), iteratively. */
export function stronglyConnectedComponents(graph: CompactGraph): Components {
  const n = graph.size;
  const { offsets, targets } = graph;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const component = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  let stackTop = 0;
  // The DFS call stack: node and the next out-edge slot to look at.
  const callNode = new Int32Array(n);
  const callSlot = new Int32Array(n);
  let next = 0;
  let count = 0;
  const cyclicList: number[] = [];

  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    let depth = 0;
    callNode[0] = root;
    callSlot[0] = offsets[root] as number;
    index[root] = low[root] = next++;
    stack[stackTop++] = root;
    onStack[root] = 1;
    while (depth >= 0) {
      const v = callNode[depth] as number;
      const slot = callSlot[depth] as number;
      if (slot < (offsets[v + 1] as number)) {
        callSlot[depth] = slot + 1;
        const w = targets[slot] as number;
        if (index[w] === -1) {
          index[w] = low[w] = next++;
          stack[stackTop++] = w;
          onStack[w] = 1;
          depth++;
          callNode[depth] = w;
          callSlot[depth] = offsets[w] as number;
        } else if (onStack[w] === 1 && (index[w] as number) < (low[v] as number)) {
          low[v] = index[w] as number;
        }
        continue;
      }
      // v is finished: close its component if it is a root, then return to the caller.
      if (low[v] === index[v]) {
        let size = 0;
        let w: number;
        do {
          w = stack[--stackTop] as number;
          onStack[w] = 0;
          component[w] = count;
          size++;
        } while (w !== v);
        let cyclic = size > 1;
        if (!cyclic) {
          for (let s = offsets[v] as number; s < (offsets[v + 1] as number); s++) {
            if (targets[s] === v) cyclic = true;
          }
        }
        cyclicList.push(cyclic ? 1 : 0);
        count++;
      }
      depth--;
      if (depth >= 0) {
        const parent = callNode[depth] as number;
        if ((low[v] as number) < (low[parent] as number)) low[parent] = low[v] as number;
      }
    }
  }
  return { count, component, cyclic: Uint8Array.from(cyclicList) };
}

/** The members of each component, in increasing node order. */
export function componentMembers(components: Components): Int32Array[] {
  const sizes = new Int32Array(components.count);
  for (const c of components.component) sizes[c] = (sizes[c] as number) + 1;
  const members = Array.from(sizes, (size) => new Int32Array(size));
  const fill = new Int32Array(components.count);
  components.component.forEach((c, v) => {
    const at = fill[c] as number;
    fill[c] = at + 1;
    (members[c] as Int32Array)[at] = v;
  });
  return members;
}
