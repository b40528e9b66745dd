/**
 * Hop-limit bounds of a handoff graph (docs/rules/hop-limit-too-low.md).
 *
 * `hop.index` counts the handoffs a task has taken, this one included, and ingest rejects
 * `hop.index >= hop.limit` (the envelope's hop counter). An edge with `max_rounds N` may be
 * taken at most N times in the whole walk. H is the most handoffs (edges) on any walk that starts
 * at an entry, ends at an agent with a terminal (it may pass through such agents before) and
 * respects every edge's rounds; `auto` assigns `hop.limit = H + 1`.
 *
 * Method. Only agents that are reachable from an entry and can reach a terminal ("useful") can
 * lie on such a walk. A walk never re-enters a strongly connected component (SCC) it has left, so
 * the rounds spent inside one SCC are independent of every other SCC, and an edge between two
 * SCCs is taken at most once (which `max_rounds >= 1` always allows). Hence H is a longest path
 * over the condensation, processed sinks first, where inside each cyclic SCC the longest walk is
 * found by a memoised search over states (agent, remaining rounds of that SCC's bounded edges).
 *
 * The search is exponential in the bounded edges of an SCC, so it runs under a state budget,
 * spent on the SCCs whose state space is smallest first. An SCC it cannot afford, up to
 * {@link MAX_FLOW_AGENTS} agents and {@link MAX_FLOW_EDGES} edges, is solved exactly as an integer
 * flow problem (`graph/longest-trail.ts`: a walk is an Eulerian trail of the edges it uses, so
 * balance at each agent, `x_e <= max_rounds` and connectivity, by branch and bound), under a
 * step budget for the whole graph. Both budgets count work (states kept, steps taken), never
 * time, so the answer is the same on every machine and under any load. Every other SCC gets a sound upper
 * bound from a potential (a height function, as in the dual of a longest-path LP): inside an SCC
 * the unbounded edges form no cycle, so there is a `phi` with `phi(w) >= phi(v) + 1` on each of
 * them (the longest unbounded path into the agent, or minus the longest one out of it). A walk
 * inside the SCC alternates unbounded paths and bounded steps; each unbounded path from x to y
 * has at most `phi(y) - phi(x)` handoffs, so the lengths telescope: a walk from v to u has at most
 *
 *     phi(u) - phi(v) + sum over bounded edges e = (a -> b) of rounds(e) * max(0, 1 + phi(a) - phi(b))
 *
 * handoffs. A bounded edge costs only as much height as it climbs back, so a back edge that
 * jumps over k agents of an unbounded chain costs about k per round, not the longest unbounded
 * path of the whole SCC. The smaller of the two potentials is kept for each agent.
 *
 * Fan-outs (`HopGraph.groups`, docs/language.md "Hop limits with branches"). A fan-out fires as
 * a whole, so taking one branch edge spends a round of every branch edge of that fan-out: the
 * memoised search gives a fan-out one digit (its smallest rounds), and a branch that leaves the
 * component is taken only while that digit is above 0. The flow search and the potentials know
 * no shared rounds; they stay sound upper bounds, so a component with fan-out branches is exact
 * only by the memoised search (else `approximation.kind` is `fan-out`).
 *
 * If a cycle of unbounded edges lies among the useful agents, H is unbounded. This is judged on
 * the graph, not on rounds-respecting walks, so a cycle that can only be reached by spending a
 * round needed again to leave it still counts as unbounded: a conservative answer.
 */
import { createCompactGraph, reverseGraph, type CompactGraph } from "./graph/compact-graph.js";
import { componentLayout, stronglyConnectedComponents, type ComponentLayout, type Components } from "./graph/scc.js";
import { longestTrail, TrailSearchOverBudget, type StepBudget } from "./graph/longest-trail.js";
import { reachableFrom, shortestWalk } from "./graph/traversal.js";

/** The graph as hop-limit analysis sees it; node ids are agent indices. */
export interface HopGraph {
  /** Number of agents. */
  readonly size: number;
  /** Source agent of each edge. */
  readonly from: ArrayLike<number>;
  /** Target agent of each edge. */
  readonly to: ArrayLike<number>;
  /** `max_rounds` of each edge; `Infinity` when unbounded. Edges with 0 rounds can never be taken. */
  readonly rounds: ArrayLike<number>;
  /** Entry agents. */
  readonly entries: readonly number[];
  /** 1 for an agent that declares at least one terminal. */
  readonly terminal: Uint8Array;
  /**
   * Per edge, the fan-out it is a branch of (a group id), or -1. The branches of one fan-out are
   * taken together, so a walk that takes one of them spends a round of every one: they share one
   * round counter, of the smallest `rounds` among them. Absent: no fan-outs.
   */
  readonly groups?: ArrayLike<number>;
  /**
   * The edges with `rounds > 0` in compact form (edge ids index `from`/`to`/`rounds`), when the
   * caller has built it already (`check()` shares the one of `graph-facts.ts`).
   */
  readonly walk?: CompactGraph;
  /** `walk` reversed, likewise optional. */
  readonly reverse?: CompactGraph;
}

/** What {@link computeHopBounds} finds. */
export interface HopBounds {
  /** Fewest handoffs from an entry to an agent with a terminal; absent when none is reachable. */
  readonly shortestWalk?: number;
  /** H (see the module comment); absent when unbounded or when no entry reaches a terminal. */
  readonly longestWalk?: number;
  /** False when `longestWalk` is an upper bound rather than the exact maximum. */
  readonly exact: boolean;
  /** A cycle without a bounded edge lies between an entry and a terminal. */
  readonly unbounded: boolean;
  /** Why `longestWalk` is not exact; absent when it is. */
  readonly approximation?: HopApproximation;
}

/**
 * What stopped the exact search: its step budget (the flow search's steps for the whole graph,
 * see {@link HopBoundOptions.stepBudget}), or a strongly connected component larger than exact
 * search takes on (its agents and edges; limits {@link MAX_FLOW_AGENTS} and
 * {@link MAX_FLOW_EDGES}). When both happened, the step budget.
 */
export type HopApproximation =
  | { readonly kind: "steps"; readonly budget: number }
  | { readonly kind: "size"; readonly agents: number; readonly edges: number }
  | { readonly kind: "fan-out"; readonly agents: number; readonly edges: number };

/** Options of {@link computeHopBounds}. */
export interface HopBoundOptions {
  /** Most states (agent, remaining rounds) the memoised search keeps in total: its memory. */
  readonly stateBudget?: number;
  /**
   * Steps the flow search may take on the whole graph (default {@link DEFAULT_STEP_BUDGET}); a
   * step is one residual arc or node looked at (`graph/longest-trail.ts`).
   */
  readonly stepBudget?: number;
}

/** Default state budget: a few hundred milliseconds of search at most. */
export const DEFAULT_STATE_BUDGET = 200_000;

/**
 * Default step budget of the flow search, per graph: tens of milliseconds on a current machine,
 * and over 300 times what any graph of the brute-force suite (12 agents, 40 edges) needs.
 */
export const DEFAULT_STEP_BUDGET = 10_000_000;

/** Largest SCC (agents) the flow search takes on; larger ones get the potential bound at once. */
export const MAX_FLOW_AGENTS = 24;

/** Largest SCC (edges inside it) the flow search takes on. */
export const MAX_FLOW_EDGES = 64;

/**
 * Computes the shortest walk, H and whether H is exact or unbounded. Never throws on any graph;
 * runs in O(agents + edges) outside the per-SCC searches, which the budget caps.
 */
export function computeHopBounds(input: HopGraph, options: HopBoundOptions = {}): HopBounds {
  const n = input.size;
  const walk = input.walk ?? createCompactGraph(n, input.from, input.to, (e) => (input.rounds[e] as number) > 0);
  const shortest = shortestWalk(walk, input.entries, input.terminal);
  if (shortest === undefined) return { exact: true, unbounded: false };
  const terminals: number[] = [];
  for (let v = 0; v < n; v++) if (input.terminal[v] === 1) terminals.push(v);
  const coReach = reachableFrom(input.reverse ?? reverseGraph(walk), terminals);
  const useful = new Uint8Array(n);
  for (let v = 0; v < n; v++) if (shortest.tree.distance[v] !== -1 && coReach[v] === 1) useful[v] = 1;

  // Restricted to useful agents these are the SCCs of the useful subgraph: an agent on a cycle
  // with a useful agent is itself reachable and co-reachable through it.
  const components = stronglyConnectedComponents(walk);
  const layout = componentLayout(components);
  const groups = input.groups;
  const scc = { walk, rounds: input.rounds, components, layout, ...(groups === undefined ? {} : { groups, terminal: input.terminal }) };
  const heights = computeHeights(scc, useful);
  if (heights === undefined) return { shortestWalk: shortest.length, exact: true, unbounded: true };

  const exactPlan = planExactSearch(scc, useful, options.stateBudget ?? DEFAULT_STATE_BUDGET);
  const search = createComponentSearch(scc);
  const stepBudget = options.stepBudget ?? DEFAULT_STEP_BUDGET;
  const steps: StepBudget = { left: stepBudget };
  let approximation: HopApproximation | undefined;
  const best = new Float64Array(n).fill(-Infinity);
  const exit = new Float64Array(n);
  let leftover = exactPlan.leftover;
  let exact = true;
  // Tarjan numbers components sinks first, so every successor component is done before its
  // predecessors.
  for (let c = 0; c < components.count; c++) {
    const start = layout.offsets[c] as number;
    const end = layout.offsets[c + 1] as number;
    if (useful[layout.nodes[start] as number] !== 1) continue;
    for (let i = start; i < end; i++) {
      const v = layout.nodes[i] as number;
      let value = input.terminal[v] === 1 ? 0 : -Infinity;
      for (let s = walk.offsets[v] as number; s < (walk.offsets[v + 1] as number); s++) {
        const w = walk.targets[s] as number;
        if (components.component[w] !== c) value = Math.max(value, 1 + (best[w] as number));
      }
      exit[v] = value;
    }
    if (components.cyclic[c] !== 1) {
      best[layout.nodes[start] as number] = exit[layout.nodes[start] as number] as number;
      continue;
    }
    if (exactPlan.reserved[c] === 1 && search.run(c, exit, best, Infinity) >= 0) continue;
    // The flow search knows no shared rounds: on a component with branches of one fan-out its
    // answer could exceed H, so only the memoised search is exact there.
    const byFlow = sharesRounds(scc, c) ? componentSize(scc, c, "fan-out") : solveByFlow(scc, c, exit, best, steps);
    if (byFlow === "exact") continue;
    if (byFlow !== "steps" && exactPlan.reserved[c] !== 1 && leftover > 0) {
      // Too large for the flow search: the memoised one may still finish, as a large state
      // space is often mostly unreachable. Its first failure ends such tries.
      const used = search.run(c, exit, best, leftover);
      leftover = used < 0 ? 0 : leftover - used;
      if (used >= 0) continue;
    }
    exact = false;
    if (byFlow === "steps") approximation = { kind: "steps", budget: stepBudget };
    else if (approximation?.kind !== "steps") approximation = byFlow;
    boundComponent(c, layout, heights, exit, best);
  }
  let longest = -Infinity;
  for (const e of input.entries) longest = Math.max(longest, best[e] as number);
  const result = { shortestWalk: shortest.length, longestWalk: longest, exact, unbounded: false };
  return approximation === undefined ? result : { ...result, approximation };
}

/**
 * Fills `best` for the members of cyclic component `c` with the flow search of
 * `graph/longest-trail.ts`, one search per member, drawing on `steps`; "steps" when they ran out
 * first (at once when an earlier component spent them), the component's size when it is beyond
 * {@link MAX_FLOW_AGENTS} or {@link MAX_FLOW_EDGES}.
 */
function solveByFlow(scc: SccView, c: number, exit: Float64Array, best: Float64Array, steps: StepBudget): "exact" | "steps" | HopApproximation {
  const { walk, rounds, components, layout } = scc;
  const group = layout.nodes.subarray(layout.offsets[c] as number, layout.offsets[c + 1] as number);
  // Too many agents: counted without the network, which a large graph's many such components
  // would each build only to drop.
  if (group.length > MAX_FLOW_AGENTS) return componentSize(scc, c, "size");
  const from: number[] = [];
  const to: number[] = [];
  const cap: number[] = [];
  let boundedRounds = 0;
  const local = new Map<number, number>();
  group.forEach((v, i) => local.set(v, i));
  for (const v of group) {
    for (let s = walk.offsets[v] as number; s < (walk.offsets[v + 1] as number); s++) {
      const w = walk.targets[s] as number;
      if (components.component[w] !== c) continue;
      from.push(local.get(v) as number);
      to.push(local.get(w) as number);
      const r = rounds[walk.edgeIds[s] as number] as number;
      cap.push(r);
      if (r !== Infinity) boundedRounds += r;
    }
  }
  if (from.length > MAX_FLOW_EDGES) return { kind: "size", agents: group.length, edges: from.length };
  // A budget spent on an earlier component is not tried again on every later one.
  if (steps.left <= 0) return "steps";
  // Unbounded edges form no cycle inside the SCC, so between two bounded steps a walk takes each
  // of them at most once: at most (bounded rounds + 1) times in all.
  for (let e = 0; e < cap.length; e++) if (cap[e] === Infinity) cap[e] = boundedRounds + 1;
  const gain = Array.from(group, (v) => exit[v] as number);
  const network = { size: group.length, from, to, cap, gain };
  const values: number[] = [];
  try {
    for (let i = 0; i < group.length; i++) values.push(longestTrail(network, i, steps));
  } catch (error) {
    if (error instanceof TrailSearchOverBudget) return "steps";
    throw error;
  }
  group.forEach((v, i) => {
    best[v] = values[i] as number;
  });
  return "exact";
}

/** The SCC structure the per-component steps share. */
interface SccView {
  readonly walk: CompactGraph;
  readonly rounds: ArrayLike<number>;
  readonly components: Components;
  readonly layout: ComponentLayout;
  /** {@link HopGraph.groups}. */
  readonly groups?: ArrayLike<number>;
  /** {@link HopGraph.terminal}, where `groups` is given. */
  readonly terminal?: Uint8Array;
}

/**
 * True when a bounded edge inside component `c` is a branch of a fan-out: its round is shared
 * with the fan-out's other branches, inside the component or leaving it.
 */
function sharesRounds({ walk, rounds, components, layout, groups }: SccView, c: number): boolean {
  if (groups === undefined) return false;
  for (let i = layout.offsets[c] as number; i < (layout.offsets[c + 1] as number); i++) {
    const v = layout.nodes[i] as number;
    for (let s = walk.offsets[v] as number; s < (walk.offsets[v + 1] as number); s++) {
      const e = walk.edgeIds[s] as number;
      if ((groups[e] as number) >= 0 && components.component[walk.targets[s] as number] === c && rounds[e] !== Infinity) return true;
    }
  }
  return false;
}

/** The size of component `c` (agents and the edges inside it), as an approximation of `kind`. */
function componentSize({ walk, components, layout }: SccView, c: number, kind: "size" | "fan-out"): HopApproximation {
  let edges = 0;
  for (let i = layout.offsets[c] as number; i < (layout.offsets[c + 1] as number); i++) {
    const v = layout.nodes[i] as number;
    for (let s = walk.offsets[v] as number; s < (walk.offsets[v + 1] as number); s++) if (components.component[walk.targets[s] as number] === c) edges++;
  }
  return { kind, agents: (layout.offsets[c + 1] as number) - (layout.offsets[c] as number), edges };
}

/**
 * Two potentials per agent of a useful cyclic SCC (see the module comment) and, per component,
 * the rounds-weighted height its bounded edges climb back under each.
 */
interface Heights {
  /** Longest path of the SCC's unbounded edges ending at the agent. */
  readonly into: Float64Array;
  /** Longest path of the SCC's unbounded edges starting at the agent (the potential is minus this). */
  readonly out: Float64Array;
  /** Per component: sum of `rounds * max(0, 1 + phi(a) - phi(b))` over bounded edges, for each potential. */
  readonly climbInto: Float64Array;
  readonly climbOut: Float64Array;
}

/**
 * Heights of every useful cyclic SCC by Kahn's order over its unbounded edges; `undefined` when
 * those edges hold a cycle in some SCC (H is unbounded). O(agents + edges).
 */
function computeHeights({ walk, rounds, components, layout }: SccView, useful: Uint8Array): Heights | undefined {
  const n = walk.size;
  const { component } = components;
  const into = new Float64Array(n);
  const out = new Float64Array(n);
  const climbInto = new Float64Array(components.count);
  const climbOut = new Float64Array(components.count);
  const indegree = new Int32Array(n);
  const order = new Int32Array(n);
  const intraUnbounded = (s: number, c: number): boolean =>
    component[walk.targets[s] as number] === c && rounds[walk.edgeIds[s] as number] === Infinity;
  for (let c = 0; c < components.count; c++) {
    const start = layout.offsets[c] as number;
    const end = layout.offsets[c + 1] as number;
    if (components.cyclic[c] !== 1 || useful[layout.nodes[start] as number] !== 1) continue;
    for (let i = start; i < end; i++) {
      const v = layout.nodes[i] as number;
      for (let s = walk.offsets[v] as number; s < (walk.offsets[v + 1] as number); s++) {
        if (intraUnbounded(s, c)) indegree[walk.targets[s] as number] = (indegree[walk.targets[s] as number] as number) + 1;
      }
    }
    // Kahn's algorithm writes the component's topological order into order[start .. end).
    let tail = start;
    for (let i = start; i < end; i++) if (indegree[layout.nodes[i] as number] === 0) order[tail++] = layout.nodes[i] as number;
    for (let head = start; head < tail; head++) {
      const v = order[head] as number;
      for (let s = walk.offsets[v] as number; s < (walk.offsets[v + 1] as number); s++) {
        if (!intraUnbounded(s, c)) continue;
        const w = walk.targets[s] as number;
        into[w] = Math.max(into[w] as number, (into[v] as number) + 1);
        indegree[w] = (indegree[w] as number) - 1;
        if (indegree[w] === 0) order[tail++] = w;
      }
    }
    if (tail < end) return undefined;
    for (let i = end - 1; i >= start; i--) {
      const v = order[i] as number;
      for (let s = walk.offsets[v] as number; s < (walk.offsets[v + 1] as number); s++) {
        if (intraUnbounded(s, c)) out[v] = Math.max(out[v] as number, (out[walk.targets[s] as number] as number) + 1);
      }
    }
    for (let i = start; i < end; i++) {
      const v = layout.nodes[i] as number;
      for (let s = walk.offsets[v] as number; s < (walk.offsets[v + 1] as number); s++) {
        const w = walk.targets[s] as number;
        const r = rounds[walk.edgeIds[s] as number] as number;
        if (component[w] !== c || r === Infinity) continue;
        climbInto[c] = (climbInto[c] as number) + r * Math.max(0, 1 + (into[v] as number) - (into[w] as number));
        climbOut[c] = (climbOut[c] as number) + r * Math.max(0, 1 - (out[v] as number) + (out[w] as number));
      }
    }
  }
  return { into, out, climbInto, climbOut };
}

/** Fills `best` for the members of component `c` with the potential bound of the module comment. */
function boundComponent(c: number, layout: ComponentLayout, heights: Heights, exit: Float64Array, best: Float64Array): void {
  const { into, out, climbInto, climbOut } = heights;
  const start = layout.offsets[c] as number;
  const end = layout.offsets[c + 1] as number;
  // The best place to leave from, under each potential: max over u of phi(u) + exit(u).
  let leaveInto = -Infinity;
  let leaveOut = -Infinity;
  for (let i = start; i < end; i++) {
    const u = layout.nodes[i] as number;
    leaveInto = Math.max(leaveInto, (into[u] as number) + (exit[u] as number));
    leaveOut = Math.max(leaveOut, -(out[u] as number) + (exit[u] as number));
  }
  for (let i = start; i < end; i++) {
    const v = layout.nodes[i] as number;
    const byInto = (climbInto[c] as number) + leaveInto - (into[v] as number);
    const byOut = (climbOut[c] as number) + leaveOut + (out[v] as number);
    best[v] = Math.min(byInto, byOut);
  }
}

/**
 * Which cyclic useful SCCs get the exact search for sure: the whole state space of an SCC (its
 * size times the product of `rounds + 1` over its bounded edges) bounds the states the search can
 * visit, so SCCs are taken smallest space first while their spaces fit in the budget. What is left
 * over is tried on the others in processing order, since a large space is often mostly unreachable.
 */
function planExactSearch(
  { walk, rounds, components, layout }: SccView,
  useful: Uint8Array,
  stateBudget: number,
): { reserved: Uint8Array; leftover: number } {
  const candidates: { c: number; space: number }[] = [];
  for (let c = 0; c < components.count; c++) {
    const start = layout.offsets[c] as number;
    const end = layout.offsets[c + 1] as number;
    if (components.cyclic[c] !== 1 || useful[layout.nodes[start] as number] !== 1) continue;
    let space = end - start;
    for (let i = start; i < end && space <= stateBudget; i++) {
      const v = layout.nodes[i] as number;
      for (let s = walk.offsets[v] as number; s < (walk.offsets[v + 1] as number); s++) {
        const r = rounds[walk.edgeIds[s] as number] as number;
        if (components.component[walk.targets[s] as number] === c && r !== Infinity) space *= r + 1;
      }
    }
    if (space <= stateBudget) candidates.push({ c, space });
  }
  candidates.sort((a, b) => a.space - b.space || a.c - b.c);
  const reserved = new Uint8Array(components.count);
  let left = stateBudget;
  for (const { c, space } of candidates) {
    if (space > left) break;
    reserved[c] = 1;
    left -= space;
  }
  return { reserved, leftover: left };
}

/** The worth of leaving a component from each agent: `free` always, `gated` ways only while their fan-out's digit is above 0. */
interface Exits {
  readonly free: Float64Array;
  readonly gated?: ReadonlyMap<number, readonly { readonly digit: number; readonly value: number }[]>;
}

interface ComponentSearch {
  /**
   * Fills `best` for the members of component `c` by exact search, visiting at most `limit`
   * states; returns the states visited, or -1 (and leaves `best` alone) when over the limit.
   */
  run(c: number, exit: Float64Array, best: Float64Array, limit: number): number;
}

function createComponentSearch({ walk, rounds, components, layout, groups, terminal }: SccView): ComponentSearch {
  const { component } = components;
  const local = new Int32Array(walk.size).fill(-1);
  // Position of each intra-SCC bounded slot among its SCC's bounded slots; -1 elsewhere.
  const boundedIndex = new Int32Array(walk.targets.length).fill(-1);
  // Each fan-out's shared rounds: the smallest `rounds` among its branches (0 for one no task can take).
  const groupRounds = new Map<number, number>();
  if (groups !== undefined) {
    for (let e = 0; e < rounds.length; e++) {
      const g = groups[e] as number;
      if (g >= 0) groupRounds.set(g, Math.min(groupRounds.get(g) ?? Infinity, rounds[e] as number));
    }
  }

  return {
    run(c, exit, best, limit) {
      const group = layout.nodes.subarray(layout.offsets[c] as number, layout.offsets[c + 1] as number);
      const size = group.length;
      // Remaining rounds are packed into one number in mixed radix (digit i = rounds left on
      // bounded slot i); a state is that code times the group size plus the local agent.
      const radix: number[] = [];
      const base: number[] = [];
      const boundedSlots: number[] = [];
      let product = 1;
      // The branches of one fan-out share one digit, of the smallest rounds among all of them.
      const shared = groupRounds;
      const digitOf = new Map<number, number>();
      group.forEach((v, i) => {
        local[v] = i;
        for (let s = walk.offsets[v] as number; s < (walk.offsets[v + 1] as number); s++) {
          const e = walk.edgeIds[s] as number;
          const r = rounds[e] as number;
          if (component[walk.targets[s] as number] !== c || r === Infinity) continue;
          const g = groups === undefined ? -1 : (groups[e] as number);
          boundedSlots.push(s);
          const digit = g < 0 ? undefined : digitOf.get(g);
          if (digit !== undefined) {
            boundedIndex[s] = digit;
            continue;
          }
          const rounds_ = g < 0 ? r : (shared.get(g) as number);
          if (g >= 0) digitOf.set(g, radix.length);
          boundedIndex[s] = radix.length;
          radix.push(product);
          base.push(rounds_ + 1);
          product *= rounds_ + 1;
        }
      });
      const used =
        product * size <= Number.MAX_SAFE_INTEGER
          ? searchStates(c, group, exitsOf(c, group, exit, best, digitOf), limit, product - 1, radix, base)
          : undefined;
      for (const s of boundedSlots) boundedIndex[s] = -1;
      if (used === undefined) return -1;
      group.forEach((v, i) => {
        best[v] = used.memo.get((product - 1) * size + i) as number;
      });
      return used.states;
    },
  };

  /**
   * What leaving component `c` from each member is worth, given the rounds left: `exit` where no
   * way out is a branch of a fan-out with a digit here; else the best way out the state allows
   * (a branch leaving the component needs its fan-out's shared round).
   */
  function exitsOf(c: number, group: Int32Array, exit: Float64Array, best: Float64Array, digitOf: ReadonlyMap<number, number>): Exits {
    if (digitOf.size === 0 || groups === undefined) return { free: exit };
    const free = Float64Array.from(exit);
    const gated = new Map<number, { digit: number; value: number }[]>();
    for (const v of group) {
      let value = terminal?.[v] === 1 ? 0 : -Infinity;
      for (let s = walk.offsets[v] as number; s < (walk.offsets[v + 1] as number); s++) {
        const w = walk.targets[s] as number;
        if (component[w] === c) continue;
        const digit = digitOf.get(groups[walk.edgeIds[s] as number] as number);
        if (digit === undefined) {
          value = Math.max(value, 1 + (best[w] as number));
          continue;
        }
        let list = gated.get(v);
        if (list === undefined) gated.set(v, (list = []));
        list.push({ digit, value: 1 + (best[w] as number) });
      }
      if (gated.has(v)) free[v] = value;
    }
    return { free, gated };
  }

  function searchStates(
    c: number,
    group: Int32Array,
    exits: Exits,
    limit: number,
    full: number,
    radix: readonly number[],
    base: readonly number[],
  ): { memo: Map<number, number>; states: number } | undefined {
    const size = group.length;
    const memo = new Map<number, number>();
    const stackState: number[] = [];
    const stackSlot: number[] = [];
    const stackValue: number[] = [];
    let states = 0;
    const push = (state: number): void => {
      const v = group[state % size] as number;
      memo.set(state, Number.NaN);
      stackState.push(state);
      stackSlot.push(walk.offsets[v] as number);
      let value = exits.free[v] as number;
      for (const way of exits.gated?.get(v) ?? []) {
        if (Math.floor(Math.floor(state / size) / (radix[way.digit] as number)) % (base[way.digit] as number) > 0) value = Math.max(value, way.value);
      }
      stackValue.push(value);
    };
    for (let i = 0; i < size; i++) {
      const start = full * size + i;
      if (memo.has(start)) continue;
      if (++states > limit) return undefined;
      push(start);
      while (stackState.length > 0) {
        const top = stackState.length - 1;
        const state = stackState[top] as number;
        const v = group[state % size] as number;
        const code = Math.floor(state / size);
        const slot = stackSlot[top] as number;
        if (slot < (walk.offsets[v + 1] as number)) {
          stackSlot[top] = slot + 1;
          const w = walk.targets[slot] as number;
          if (component[w] !== c) continue;
          let nextCode = code;
          const b = boundedIndex[slot] as number;
          if (b !== -1) {
            const r = radix[b] as number;
            if (Math.floor(code / r) % (base[b] as number) === 0) continue;
            nextCode = code - r;
          }
          const next = nextCode * size + (local[w] as number);
          const known = memo.get(next);
          if (known === undefined) {
            if (++states > limit) return undefined;
            push(next);
          } else if (Number.isNaN(known)) {
            // A state cycle would need a cycle of unbounded edges, which was ruled out above.
            throw new Error("internal: hop-limit search met a cycle of unbounded edges");
          } else {
            stackValue[top] = Math.max(stackValue[top] as number, 1 + known);
          }
          continue;
        }
        const value = stackValue[top] as number;
        memo.set(state, value);
        stackState.pop();
        stackSlot.pop();
        stackValue.pop();
        if (top > 0) stackValue[top - 1] = Math.max(stackValue[top - 1] as number, 1 + value);
      }
    }
    return { memo, states };
  }
}
