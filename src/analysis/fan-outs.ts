/**
 * Fan-outs and joins of a checked graph (docs/language.md, Fan-out and joins): the branches of
 * each fan-out, the joins, and the walks the fan-out rules share. Every walk here follows only
 * routes (edges a task can take: `GraphFacts.route`) and is a breadth-first search, linear in the
 * graph, so the rules stay bounded by the graph's size. Rules call these only for graphs that
 * have a `fan_out` or a `join` line.
 */
import type { CheckedAgent, CheckedEdge, CheckedGraph, CheckedJoin } from "./model.js";

/** One fan-out: the delegate edges of one supervisor with the same `fan_out` name, in source order. */
export interface FanOut {
  readonly name: string;
  /** The supervisor that fans out. */
  readonly from: string;
  /** Its branches: one edge each (`fan_out` on an edge of another kind is left out, and reported). */
  readonly edges: readonly CheckedEdge[];
}

/** A join with its agent. */
export interface JoinAt {
  readonly agent: CheckedAgent;
  readonly join: CheckedJoin;
}

/** The fan-outs of a graph, in the order of their first branch. */
export function fanOutsOf(graph: CheckedGraph): FanOut[] {
  const byKey = new Map<string, { name: string; from: string; edges: CheckedEdge[] }>();
  // Index loops here and below: see docs/performance.md, "Loops over a large graph".
  for (let e = 0; e < graph.edges.length; e++) {
    const edge = graph.edges[e] as CheckedEdge;
    if (edge.fanOut === undefined || edge.kind !== "delegate") continue;
    const key = `${edge.from}\n${edge.fanOut}`;
    let group = byKey.get(key);
    if (group === undefined) {
      group = { name: edge.fanOut, from: edge.from, edges: [] };
      byKey.set(key, group);
    }
    group.edges.push(edge);
  }
  return [...byKey.values()];
}

/** The joins of a graph, in agent order. */
export function joinsOf(graph: CheckedGraph): JoinAt[] {
  const out: JoinAt[] = [];
  for (let a = 0; a < graph.agents.length; a++) {
    const agent = graph.agents[a] as CheckedAgent;
    if (agent.join !== undefined) out.push({ agent, join: agent.join });
  }
  return out;
}

/**
 * True when the graph has a `fan_out` or `join` line the rules should look at. Five rules ask it
 * of every graph, and the scan of a 10^4-agent graph's edges and agents took 0.6 ms each time,
 * so the answer is kept per checked graph (made once per check, never changed after).
 */
export function hasParallelWork(graph: CheckedGraph): boolean {
  const lines = parallelLinesOf(graph);
  return lines.fanOut || lines.join;
}

/**
 * True when an edge of the graph has a complete `fan_out` line (`CheckedEdge.fanOut`): the
 * rules that look only at fan-outs skip their loop over the edges without one.
 */
export function hasFanOut(graph: CheckedGraph): boolean {
  return parallelLinesOf(graph).fanOut;
}

/** Whether some edge has a `fan_out` and some agent a `join`, for each checked graph asked so far (weak: dropped with the graph). */
const parallelLines = new WeakMap<CheckedGraph, { readonly fanOut: boolean; readonly join: boolean }>();

function parallelLinesOf(graph: CheckedGraph): { readonly fanOut: boolean; readonly join: boolean } {
  let lines = parallelLines.get(graph);
  if (lines === undefined) {
    let fanOut = false;
    let join = false;
    for (let e = 0; e < graph.edges.length && !fanOut; e++) fanOut = (graph.edges[e] as CheckedEdge).fanOut !== undefined;
    for (let a = 0; a < graph.agents.length && !join; a++) join = (graph.agents[a] as CheckedAgent).join !== undefined;
    lines = { fanOut, join };
    parallelLines.set(graph, lines);
  }
  return lines;
}

/** Out-edges by agent id, routes only (`route[e] === 1`). */
export type Routes = ReadonlyMap<string, readonly CheckedEdge[]>;

/** The routes of `graph` by source agent. */
export function routesOf(graph: CheckedGraph, route: ArrayLike<number>): Routes {
  const out = new Map<string, CheckedEdge[]>();
  for (let e = 0; e < graph.edges.length; e++) {
    const edge = graph.edges[e] as CheckedEdge;
    if (route[edge.index] !== 1) continue;
    let list = out.get(edge.from);
    if (list === undefined) {
      list = [];
      out.set(edge.from, list);
    }
    list.push(edge);
  }
  return out;
}

/**
 * Breadth-first search from `starts` over `routes`, not expanding the agents `stop` names (they
 * are reached, not left) and skipping the edges `skip` rejects. Returns each reached agent with
 * the edge it was first reached by (undefined for a start).
 */
export function reach(
  routes: Routes,
  starts: readonly string[],
  stop: (agent: string) => boolean = () => false,
  skip: (edge: CheckedEdge) => boolean = () => false,
): Map<string, CheckedEdge | undefined> {
  const seen = new Map<string, CheckedEdge | undefined>();
  const queue: string[] = [];
  for (const s of starts) {
    if (seen.has(s)) continue;
    seen.set(s, undefined);
    queue.push(s);
  }
  for (let head = 0; head < queue.length; head++) {
    const agent = queue[head] as string;
    if (head >= starts.length && stop(agent)) continue;
    for (const edge of routes.get(agent) ?? []) {
      if (skip(edge) || seen.has(edge.to)) continue;
      seen.set(edge.to, edge);
      queue.push(edge.to);
    }
  }
  return seen;
}

/** The agents of a walk found by {@link reach}, from its start to `to`. */
export function walkTo(found: ReadonlyMap<string, CheckedEdge | undefined>, to: string): string[] {
  const walk = [to];
  let at = found.get(to);
  // Each step goes to an agent reached earlier, so this ends.
  while (at !== undefined) {
    walk.push(at.from);
    at = found.get(at.from);
  }
  return walk.reverse();
}

/**
 * The agents a task can reach before `join` fires: from the entries, leaving the join agent only
 * by its own fan-out's branches (every other handoff out of it waits until the join fires).
 */
export function reachedBeforeJoin(routes: Routes, entries: readonly string[], join: string): Map<string, CheckedEdge | undefined> {
  return reach(routes, entries, undefined, (e) => e.from === join && !(e.kind === "delegate" && e.fanOut !== undefined));
}

/**
 * What one branch of a fan-out reaches: the agents from the branch's target on, not going back
 * through the supervisor that fanned out (the parent's own work) nor on past a join (an arrival
 * ends the branch there).
 */
export function branchReach(routes: Routes, fanOut: FanOut, branch: CheckedEdge, joins: ReadonlySet<string>): Map<string, CheckedEdge | undefined> {
  return reach(routes, [branch.to], (agent) => agent === fanOut.from || joins.has(agent));
}

/**
 * The size of a largest set of `inputs` that lie on pairwise different branches (a maximum
 * bipartite matching of inputs to branches, by augmenting paths: inputs times branches times
 * edges of the relation, small next to the graph). `on[i]` lists the branches input `i` lies on.
 */
export function distinctBranches(on: readonly (readonly number[])[], branches: number): number {
  const owner = new Int32Array(branches).fill(-1);
  const augment = (input: number, visited: Uint8Array): boolean => {
    for (const b of on[input] ?? []) {
      if (visited[b] === 1) continue;
      visited[b] = 1;
      if (owner[b] === -1 || augment(owner[b] as number, visited)) {
        owner[b] = input;
        return true;
      }
    }
    return false;
  };
  let matched = 0;
  for (let i = 0; i < on.length; i++) if (augment(i, new Uint8Array(branches))) matched++;
  return matched;
}
