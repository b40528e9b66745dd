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
  // At most one component per node; trimmed to `count` at the end.
  const cyclic = new Uint8Array(n);

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
        let isCyclic = size > 1;
        if (!isCyclic) {
          for (let s = offsets[v] as number; s < (offsets[v + 1] as number); s++) {
            if (targets[s] === v) isCyclic = true;
          }
        }
        cyclic[count] = isCyclic ? 1 : 0;
        count++;
      }
      depth--;
      if (depth >= 0) {
        const parent = callNode[depth] as number;
        if ((low[v] as number) < (low[parent] as number)) low[parent] = low[v] as number;
      }
    }
  }
  return { count, component, cyclic: cyclic.slice(0, count) };
}

/** The members of every component in one flat list: component `c` holds `nodes[offsets[c] .. offsets[c + 1])`. */
export interface ComponentLayout {
  readonly offsets: Int32Array;
  readonly nodes: Int32Array;
}

/** The members of each component in CSR form (no array per component), in increasing node order. */
export function componentLayout(components: Components): ComponentLayout {
  const offsets = new Int32Array(components.count + 1);
  // An index loop: see docs/performance.md, "Loops over a large graph".
  for (let v = 0; v < components.component.length; v++) {
    const c = components.component[v] as number;
    offsets[c + 1] = (offsets[c + 1] as number) + 1;
  }
  for (let c = 0; c < components.count; c++) offsets[c + 1] = (offsets[c + 1] as number) + (offsets[c] as number);
  const nodes = new Int32Array(components.component.length);
  const fill = offsets.slice(0, components.count);
  components.component.forEach((c, v) => {
    const at = fill[c] as number;
    fill[c] = at + 1;
    nodes[at] = v;
  });
  return { offsets, nodes };
}

/** The members of each component, in increasing node order. */
export function componentMembers(components: Components): Int32Array[] {
  const { offsets, nodes } = componentLayout(components);
  return Array.from({ length: components.count }, (_, c) => nodes.slice(offsets[c] as number, offsets[c + 1] as number));
}
