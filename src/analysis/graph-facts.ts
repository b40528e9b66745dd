/**
 * Structural facts of a bound graph that several rules and the model share: the walk graph in
 * compact form, reachability from the entries, which agents can still reach a terminal, and the
 * unbounded cycles. Computed once per graph, in O(agents + edges).
 *
 * The walk graph leaves out edges with `max_rounds 0` and edges whose guard never matches or is
 * shadowed by the guards before it (`guards.ts`): a task can never take them (`max-rounds-zero`
 * and `guard-unreachable` report them), so they neither reach nor rescue anyone.
 */
import { checkRouter, gateAwareRouter, type RouterCoverage, type RouterFindings } from "./guards.js";
import type { CheckedGuard } from "./model.js";
import { createCompactGraph, reverseGraph, type CompactGraph } from "./graph/compact-graph.js";
import { stronglyConnectedComponents } from "./graph/scc.js";
import { markPaired } from "./graph/pairs.js";
import { breadthFirst, cycleThrough, reachableFrom, type SearchTree } from "./graph/traversal.js";
import { EDGE_KINDS, type BoundAgent, type BoundGraph } from "./bind.js";

/** The guarded edges out of one agent, with their enumeration (`guards.ts`). */
export interface Router {
  /** Agent index. */
  readonly agent: number;
  /** Bound edge positions, in source order. */
  readonly edges: readonly number[];
  readonly coverage: RouterCoverage;
  readonly findings: RouterFindings;
}

/** The guarded edges out of one agent when checking them takes too many steps (`MAX_GUARD_STEPS`). */
export interface UncheckedRouter {
  /** Agent index. */
  readonly agent: number;
  /** Bound edge positions, in source order. */
  readonly edges: readonly number[];
  /** The states the enumeration has. */
  readonly states: number;
}

/** Facts about one graph; node ids are agent indices, edge ids are bound edge positions (`BoundGraph.edgeDecl`). */
export interface GraphFacts {
  /** One router per agent with guarded edges out of it, in agent order, but the unchecked ones. */
  readonly routers: readonly Router[];
  /** The routers too large to enumerate: every edge of theirs counts as one a task may take. */
  readonly uncheckedRouters: readonly UncheckedRouter[];
  /** 1 where a task can take the bound edge (not `max_rounds 0`, not a guard that never matches). */
  readonly route: Uint8Array;
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
  /**
   * Per bound edge: 1 for a delegate `a -> b` with a return `b -> a`, and for a return `b -> a`
   * with a delegate `a -> b` (`missing-return`, `role-mismatch`).
   */
  readonly paired: Uint8Array;
}

/** Computes the {@link GraphFacts} of a bound graph. */
export function computeGraphFacts(bound: BoundGraph): GraphFacts {
  const n = bound.agents.length;
  const { edgeFrom: from, edgeTo: to, edgeRounds: rounds } = bound;
  const { routers, uncheckedRouters } = findRouters(bound);
  const route = new Uint8Array(bound.edgeDecl.length);
  for (let e = 0; e < route.length; e++) route[e] = rounds[e] === 0 ? 0 : 1;
  for (const router of routers) {
    router.findings.unreachable.forEach((why, i) => {
      if (why !== undefined) route[router.edges[i] as number] = 0;
    });
  }
  const walk = createCompactGraph(n, from, to, (e) => route[e] === 1);
  const reverse = reverseGraph(walk);
  const fromEntries = breadthFirst(walk, bound.entries);
  const reachable = new Uint8Array(n);
  const terminal = new Uint8Array(n);
  // An agent with an edge to an undeclared agent may well finish once the name is fixed.
  const finishers = [...bound.danglingFrom];
  for (let v = 0; v < n; v++) {
    if (fromEntries.distance[v] !== -1) reachable[v] = 1;
    if ((bound.agents[v] as BoundAgent).terminals.length > 0) {
      terminal[v] = 1;
      finishers.push(v);
    }
  }
  const canTerminate = reachableFrom(reverse, finishers);
  return {
    routers,
    uncheckedRouters,
    route,
    walk,
    reverse,
    fromEntries,
    reachable,
    terminal,
    canTerminate,
    ...findUnboundedCycles(bound, route, reachable, canTerminate),
    paired: pairDelegatesAndReturns(bound),
  };
}

/** The routers of the graph: the guarded bound edges grouped by source, each enumerated unless it is too large. */
function findRouters(bound: BoundGraph): { routers: Router[]; uncheckedRouters: UncheckedRouter[] } {
  const bySource = new Map<number, number[]>();
  bound.edgeGuard.forEach((guard, e) => {
    if (guard === undefined) return;
    const from = bound.edgeFrom[e] as number;
    const list = bySource.get(from);
    if (list === undefined) bySource.set(from, [e]);
    else list.push(e);
  });
  const routers: Router[] = [];
  const uncheckedRouters: UncheckedRouter[] = [];
  for (const [agent, edges] of [...bySource].sort((a, b) => a[0] - b[0])) {
    // Nothing waiting for review leaves an approval gate: the enumeration leaves that state out.
    const gate = gateAwareRouter(
      edges.map((e) => bound.edgeGuard[e] as CheckedGuard),
      (bound.agents[agent] as BoundAgent).gate === true,
      edges.map((e) => bound.edgeGate[e] === 1),
    );
    const check = checkRouter(gate.guards, gate.statuses);
    if (check.checked) routers.push({ agent, edges, coverage: check.coverage, findings: check.findings });
    else uncheckedRouters.push({ agent, edges, states: check.states });
  }
  return { routers, uncheckedRouters };
}

function findUnboundedCycles(
  bound: BoundGraph,
  route: Uint8Array,
  reachable: Uint8Array,
  canTerminate: Uint8Array,
): Pick<GraphFacts, "unboundedCycles" | "inUnboundedCycle"> {
  const n = bound.agents.length;
  // A self-handoff is its own error (`self-handoff`); counting it as a cycle too would advise
  // bounding an edge that must go.
  const unboundedGraph = createCompactGraph(
    n,
    bound.edgeFrom,
    bound.edgeTo,
    (e) => bound.edgeRounds[e] === Infinity && route[e] === 1 && bound.edgeFrom[e] !== bound.edgeTo[e],
  );
  const components = stronglyConnectedComponents(unboundedGraph);
  const inUnboundedCycle = new Uint8Array(bound.edgeDecl.length);
  const unboundedCycles: number[][] = [];
  const done = new Uint8Array(components.count);
  for (let v = 0; v < n; v++) {
    const c = components.component[v] as number;
    if (done[c] === 1 || components.cyclic[c] !== 1 || reachable[v] !== 1 || canTerminate[v] !== 1) continue;
    done[c] = 1;
    unboundedCycles.push(cycleThrough(unboundedGraph, v, components.component).map((s) => unboundedGraph.edgeIds[s] as number));
  }
  if (unboundedCycles.length === 0) return { unboundedCycles, inUnboundedCycle };
  for (let v = 0; v < n; v++) {
    const c = components.component[v] as number;
    if (done[c] !== 1) continue;
    for (let s = unboundedGraph.offsets[v] as number; s < (unboundedGraph.offsets[v + 1] as number); s++) {
      if (components.component[unboundedGraph.targets[s] as number] === c) inUnboundedCycle[unboundedGraph.edgeIds[s] as number] = 1;
    }
  }
  return { unboundedCycles, inUnboundedCycle };
}

function pairDelegatesAndReturns(bound: BoundGraph): Uint8Array {
  return markPaired(bound.agents.length, bound.edgeKind, EDGE_KINDS.indexOf("delegate"), EDGE_KINDS.indexOf("return"), bound.edgeFrom, bound.edgeTo);
}
