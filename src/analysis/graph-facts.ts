/**
 * Structural facts of a bound graph that several rules and the model share: the walk graph in
 * compact form, reachability from the entries, which agents can still reach a terminal, and the
 * unbounded cycles. Computed once per graph, in O(agents + edges).
 *
 * The walk graph leaves out edges with `max_rounds 0`: a task can never take them (the
 * `max-rounds-zero` rule reports them), so they neither reach nor rescue anyone.
 */
import { createCompactGraph, reverseGraph, type CompactGraph } from "./graph/compact-graph.js";
import { stronglyConnectedComponents } from "./graph/scc.js";
import { breadthFirst, cycleThrough, reachableFrom, type SearchTree } from "./graph/traversal.js";
import type { BoundGraph } from "./bind.js";

/** Facts about one graph; node ids are agent indices, edge ids are `BoundGraph.edges` indices. */
export interface GraphFacts {
  /** The edges a task can take (all bound edges except `max_rounds 0`). */
  readonly walk: CompactGraph;
  /** `walk` reversed. */
  readonly reverse: CompactGraph;
  /** Breadth-first tree from the entries over `walk` (shortest paths from an entry). */
  readonly fromEntries: SearchTree;
  /** 1 where an entry reaches the agent (entries reach themselves). */
  readonly reachable: Uint8Array;
  /** 1 for agents that declare a terminal. */
  readonly terminal: Uint8Array;
  /** 1 where some agent with a terminal, or with an edge to an undeclared agent, is reachable
   * (itself included). */
  readonly canTerminate: Uint8Array;
  /**
   * One witness per unbounded cycle: a strongly connected component of the unbounded edges that
   * an entry reaches and from which a terminal is reachable. Each witness is the edge ids of a
   * closed walk, starting at the component's first-declared agent.
   */
  readonly unboundedCycles: readonly (readonly number[])[];
  /** 1 for every unbounded edge inside one of those components. */
  readonly inUnboundedCycle: Uint8Array;
}

/** Computes the {@link GraphFacts} of a bound graph. */
export function computeGraphFacts(bound: BoundGraph): GraphFacts {
  const n = bound.agents.length;
  const from = bound.edges.map((e) => e.fromIndex);
  const to = bound.edges.map((e) => e.toIndex);
  const walk = createCompactGraph(n, from, to, (e) => bound.edges[e]?.maxRounds !== 0);
  const reverse = reverseGraph(walk);
  const fromEntries = breadthFirst(walk, bound.entries);
  const reachable = Uint8Array.from(fromEntries.distance, (d) => (d === -1 ? 0 : 1));
  const terminal = Uint8Array.from(bound.agents, (a) => (a.terminals.length > 0 ? 1 : 0));
  const terminals: number[] = [];
  terminal.forEach((t, v) => {
    if (t === 1) terminals.push(v);
  });
  // An agent with an edge to an undeclared agent may well finish once the name is fixed.
  const canTerminate = reachableFrom(reverse, [...terminals, ...bound.danglingFrom]);

  const unboundedGraph = createCompactGraph(n, from, to, (e) => bound.edges[e]?.maxRounds === undefined);
  const components = stronglyConnectedComponents(unboundedGraph);
  const inUnboundedCycle = new Uint8Array(bound.edges.length);
  const unboundedCycles: number[][] = [];
  const done = new Uint8Array(components.count);
  for (let v = 0; v < n; v++) {
    const c = components.component[v] as number;
    if (done[c] === 1 || components.cyclic[c] !== 1 || reachable[v] !== 1 || canTerminate[v] !== 1) continue;
    done[c] = 1;
    unboundedCycles.push(cycleThrough(unboundedGraph, v, components.component).map((s) => unboundedGraph.edgeIds[s] as number));
  }
  for (let v = 0; v < n; v++) {
    const c = components.component[v] as number;
    if (done[c] !== 1) continue;
    for (let s = unboundedGraph.offsets[v] as number; s < (unboundedGraph.offsets[v + 1] as number); s++) {
      if (components.component[unboundedGraph.targets[s] as number] === c) inUnboundedCycle[unboundedGraph.edgeIds[s] as number] = 1;
    }
  }
  return { walk, reverse, fromEntries, reachable, terminal, canTerminate, unboundedCycles, inUnboundedCycle };
}
