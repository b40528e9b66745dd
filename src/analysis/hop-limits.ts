/**
 * Hop-limit bounds of a handoff graph (DESIGN.md section 3).
 *
 * `hop.index` counts the handoffs a task has taken, this one included, and ingest rejects
 * `hop.index >= hop.limit` (seed `000_1aee4e1ce8cdfd24.txt`). An edge with `max_rounds N` may be
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
 * Where the states of one SCC would exceed the budget, a sound upper bound replaces the search:
 * inside an SCC whose unbounded edges form no cycle, a walk takes bounded edges at most
 * B = sum of their `max_rounds` times, and between two of those steps it follows unbounded edges
 * only, i.e. a path of the acyclic unbounded subgraph, at most Lu edges long (its longest path).
 * So a walk inside the SCC has at most B + (B + 1) * Lu handoffs, and the SCC contributes at most
 * that plus the best way out of it.
 *
 * If a cycle of unbounded edges lies among the useful agents, H is unbounded. This is judged on
 * the graph, not on rounds-respecting walks, so a cycle that can only be reached by spending a
 * round needed again to leave it still counts as unbounded: a conservative answer.
 */
import { createCompactGraph, reverseGraph, type CompactGraph } from "./graph/compact-graph.js";
import { componentMembers, stronglyConnectedComponents } from "./graph/scc.js";
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
}

/** Options of {@link computeHopBounds}. */
export interface HopBoundOptions {
  /** Most search states (agent, remaining rounds) explored in total before bounds are used. */
  readonly stateBudget?: number;
}

/** Default state budget: a few hundred milliseconds of search at most. */
export const DEFAULT_STATE_BUDGET = 200_000;

/**
 * Computes the shortest walk, H and whether H is exact or unbounded. Never throws on any graph;
 * runs in O(agents + edges) outside the per-SCC searches, which the budget caps.
 */
export function computeHopBounds(input: HopGraph, options: HopBoundOptions = {}): HopBounds {
  const n = input.size;
  const usable = (e: number): boolean => (input.rounds[e] as number) > 0;
  const graph = createCompactGraph(n, input.from, input.to, usable);
  const terminals: number[] = [];
  input.terminal.forEach((t, v) => {
    if (t === 1) terminals.push(v);
  });
  const shortest = shortestWalk(graph, input.entries, input.terminal);
  if (shortest === undefined) return { exact: true, unbounded: false };
  const reach = reachableFrom(graph, input.entries);
  const coReach = reachableFrom(reverseGraph(graph), terminals);
  const useful = Uint8Array.from(reach, (r, v) => r & (coReach[v] as number));
  const inUseful = (e: number): boolean =>
    usable(e) && useful[input.from[e] as number] === 1 && useful[input.to[e] as number] === 1;

  const unboundedOnly = createCompactGraph(
    n,
    input.from,
    input.to,
    (e) => inUseful(e) && input.rounds[e] === Infinity,
  );
  const unboundedComponents = stronglyConnectedComponents(unboundedOnly);
  if (unboundedComponents.cyclic.includes(1)) {
    return { shortestWalk: shortest.length, exact: true, unbounded: true };
  }

  const core = createCompactGraph(n, input.from, input.to, inUseful);
  const components = stronglyConnectedComponents(core);
  const members = componentMembers(components);
  const best = new Float64Array(n).fill(-Infinity);
  const search = createComponentSearch(core, components.component, input, options.stateBudget ?? DEFAULT_STATE_BUDGET);
  let exact = true;
  // Tarjan numbers components sinks first, so every successor component is done before its
  // predecessors.
  for (let c = 0; c < components.count; c++) {
    const group = members[c] as Int32Array;
    if (useful[group[0] as number] !== 1) continue;
    const exit = new Float64Array(group.length);
    group.forEach((v, i) => {
      let value = input.terminal[v] === 1 ? 0 : -Infinity;
      for (let s = core.offsets[v] as number; s < (core.offsets[v + 1] as number); s++) {
        const w = core.targets[s] as number;
        if (components.component[w] !== c) value = Math.max(value, 1 + (best[w] as number));
      }
      exit[i] = value;
    });
    if (components.cyclic[c] !== 1) {
      best[group[0] as number] = exit[0] as number;
    } else if (!search.exact(c, group, exit, best)) {
      exact = false;
      search.bound(c, group, exit, best);
    }
  }
  let longest = -Infinity;
  for (const e of input.entries) longest = Math.max(longest, best[e] as number);
  return { shortestWalk: shortest.length, longestWalk: longest, exact, unbounded: false };
}

interface ComponentSearch {
  /** Fills `best` for the members of component `c` by exact search; false when over budget. */
  exact(c: number, group: Int32Array, exit: Float64Array, best: Float64Array): boolean;
  /** Fills `best` for the members of component `c` with the sound upper bound. */
  bound(c: number, group: Int32Array, exit: Float64Array, best: Float64Array): void;
}

function createComponentSearch(
  core: CompactGraph,
  component: Int32Array,
  input: HopGraph,
  stateBudget: number,
): ComponentSearch {
  const local = new Int32Array(core.size).fill(-1);
  let budget = stateBudget;

  // Intra-component slots of `group`, split into bounded and unbounded, with local node ids.
  const intraSlots = (c: number, group: Int32Array) => {
    group.forEach((v, i) => {
      local[v] = i;
    });
    const bounded: number[] = [];
    for (const v of group) {
      for (let s = core.offsets[v] as number; s < (core.offsets[v + 1] as number); s++) {
        if (component[core.targets[s] as number] !== c) continue;
        if (input.rounds[core.edgeIds[s] as number] !== Infinity) bounded.push(s);
      }
    }
    return bounded;
  };

  return {
    exact(c, group, exit, best) {
      const bounded = intraSlots(c, group);
      // Remaining rounds are packed into one number in mixed radix (digit i = rounds left on
      // bounded slot i); a state is that code times the group size plus the local agent.
      const radix = new Float64Array(bounded.length);
      const boundedIndex = new Map<number, number>();
      let product = 1;
      bounded.forEach((s, i) => {
        radix[i] = product;
        boundedIndex.set(s, i);
        product *= (input.rounds[core.edgeIds[s] as number] as number) + 1;
      });
      const full = product - 1;
      if (!(product * group.length <= Number.MAX_SAFE_INTEGER)) return false;
      const size = group.length;
      const memo = new Map<number, number>();
      const stackState: number[] = [];
      const stackSlot: number[] = [];
      const stackValue: number[] = [];
      const push = (state: number): void => {
        const v = group[state % size] as number;
        memo.set(state, Number.NaN);
        stackState.push(state);
        stackSlot.push(core.offsets[v] as number);
        stackValue.push(exit[state % size] as number);
      };
      for (let i = 0; i < size; i++) {
        const start = full * size + i;
        if (memo.has(start)) continue;
        if (--budget < 0) return false;
        push(start);
        while (stackState.length > 0) {
          const top = stackState.length - 1;
          const state = stackState[top] as number;
          const v = group[state % size] as number;
          const code = Math.floor(state / size);
          const slot = stackSlot[top] as number;
          if (slot < (core.offsets[v + 1] as number)) {
            stackSlot[top] = slot + 1;
            const w = core.targets[slot] as number;
            if (component[w] !== c) continue;
            let nextCode = code;
            const b = boundedIndex.get(slot);
            if (b !== undefined) {
              const r = radix[b] as number;
              const left = Math.floor(code / r) % ((input.rounds[core.edgeIds[slot] as number] as number) + 1);
              if (left === 0) continue;
              nextCode = code - r;
            }
            const next = nextCode * size + (local[w] as number);
            const known = memo.get(next);
            if (known === undefined) {
              if (--budget < 0) return false;
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
      group.forEach((v, i) => {
        best[v] = memo.get(full * size + i) as number;
      });
      return true;
    },

    bound(c, group, exit, best) {
      const bounded = intraSlots(c, group);
      let rounds = 0;
      for (const s of bounded) rounds += input.rounds[core.edgeIds[s] as number] as number;
      // Longest path of the unbounded intra edges (acyclic here), by Kahn's order.
      const size = group.length;
      const indegree = new Int32Array(size);
      const isBounded = new Set(bounded);
      const intraUnbounded = (s: number): boolean =>
        component[core.targets[s] as number] === c && !isBounded.has(s);
      for (const v of group) {
        for (let s = core.offsets[v] as number; s < (core.offsets[v + 1] as number); s++) {
          if (!intraUnbounded(s)) continue;
          const j = local[core.targets[s] as number] as number;
          indegree[j] = (indegree[j] as number) + 1;
        }
      }
      const queue: number[] = [];
      indegree.forEach((d, i) => {
        if (d === 0) queue.push(i);
      });
      const depth = new Float64Array(size);
      let longestRun = 0;
      for (let head = 0; head < queue.length; head++) {
        const i = queue[head] as number;
        const v = group[i] as number;
        longestRun = Math.max(longestRun, depth[i] as number);
        for (let s = core.offsets[v] as number; s < (core.offsets[v + 1] as number); s++) {
          if (!intraUnbounded(s)) continue;
          const j = local[core.targets[s] as number] as number;
          depth[j] = Math.max(depth[j] as number, (depth[i] as number) + 1);
          indegree[j] = (indegree[j] as number) - 1;
          if (indegree[j] === 0) queue.push(j);
        }
      }
      let bestExit = -Infinity;
      for (const x of exit) bestExit = Math.max(bestExit, x);
      const inside = rounds + (rounds + 1) * longestRun;
      for (const v of group) best[v] = inside + bestExit;
    },
  };
}
