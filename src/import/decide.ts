/**
 * What an import has to guess, decided once and deterministically: roles (when the source has
 * none), edge kinds, routes for conditional edges, `max_rounds` on cycles and terminal outcomes.
 * Every guess carries its reason, which the writer puts in a `seam-guess` marker
 * (`core/guess-marker.ts`). The choices make a graph `seam check` accepts:
 *
 * - **Roles.** An agent is a supervisor when it has a two-way pair of edges with an agent that
 *   has fewer outgoing edges (a hub), every agent it hands work to hands it back and every agent
 *   that hands it work gets work from it (so each of its edges is a `delegate` with its `return`).
 *   An agent a supervisor hands work to is a worker; the rest are peers.
 * - **Kinds.** supervisor -> worker `delegate`, worker -> supervisor `return`, between two
 *   supervisors the one with more outgoing edges (then the earlier one) delegates and the other
 *   returns, anything else `transfer`: every `return` has its `delegate` and every kind fits its
 *   roles.
 * - **Routes.** The conditional edges of one router (two or more) become `when allowed_next_step
 *   is <branch>` routes, the last one `otherwise` (the source raises on a branch it does not
 *   know; Seam needs a route for every state). A router with one conditional edge gets no guard.
 *   Edges that share a branch name are all taken at once (AutoGen): they are written without a
 *   guard and marked `fan-out`.
 * - **Cycles.** Each edge that closes a cycle in a depth-first walk from the entries (then from
 *   the agents left, in order) and has no stated bound gets `max_rounds` {@link GUESSED_ROUNDS}.
 * - **Ends.** An end without an outcome is `complete`.
 *
 * An edge from an agent to itself is left out (Seam has no self-handoff), as is a second edge
 * between the same two agents; both are noted.
 */
import type { EdgeKind, Outcome, Role } from "../core/vocabulary.js";
import type { ImportedEdge, ImportedGraph } from "./model.js";
import { createNameMap, toSeamName, type RenamedName } from "./names.js";

/** The `max_rounds` written on a cycle the source does not bound. */
export const GUESSED_ROUNDS = 3;

/** A value and, when it was guessed, why. */
export interface Guessed<T> {
  readonly value: T;
  readonly guess?: string;
}

/** A terminal as it will be written. */
export interface DecidedTerminal {
  readonly name: string;
  readonly outcome: Guessed<Outcome>;
  readonly description?: string;
}

/** An agent as it will be written (`name` is a Seam identifier; `source` the source's id). */
export interface DecidedAgent {
  readonly name: string;
  readonly source: string;
  readonly role: Guessed<Role>;
  readonly version?: string;
  readonly gate?: boolean;
  readonly effect?: string;
  readonly join?: string;
  readonly terminals: readonly DecidedTerminal[];
}

/** An edge as it will be written. */
export interface DecidedEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: Guessed<EdgeKind>;
  /** The guard as written (`when allowed_next_step is NAME`, `otherwise`), with why when guessed. */
  readonly guard?: { readonly text: string; readonly guess?: string };
  readonly minConfidence?: string;
  readonly gate?: boolean;
  readonly fanOutName?: string;
  readonly require?: Guessed<readonly string[]>;
  readonly maxRounds?: Guessed<number>;
  readonly observe: boolean;
  /** Why this edge stands for a branch of a fan-out. */
  readonly fanOut?: string;
}

/** A whole graph as it will be written. */
export interface DecidedGraph {
  readonly name: string;
  readonly source: string;
  readonly agents: readonly DecidedAgent[];
  readonly edges: readonly DecidedEdge[];
  readonly entries: Guessed<readonly string[]>;
  readonly hopLimit?: number;
  readonly notes: readonly string[];
  /** Source names that are not Seam identifiers, and what they became. */
  readonly renamed: readonly RenamedName[];
}

/** Decides everything {@link ImportedGraph} leaves open. Linear in the graph's size (plus the role fixpoint). */
export function decideGraph(graph: ImportedGraph): DecidedGraph {
  const names = createNameMap();
  const notes = [...graph.notes];
  const nodes = graph.nodes;
  const index = new Map<string, number>();
  nodes.forEach((node, i) => {
    names.name(node.id);
    index.set(node.id, i);
  });
  const name = (id: string): string => names.name(id);

  // Edges kept: no self-handoffs, one per ordered pair.
  const seen = new Set<string>();
  const edges = graph.edges.filter((edge) => {
    if (edge.from === edge.to) {
      notes.push(`the edge from ${JSON.stringify(edge.from)} to itself is left out: in Seam an agent that keeps working needs no handoff`);
      return false;
    }
    const key = `${index.get(edge.from)} ${index.get(edge.to)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const n = nodes.length;
  const out: number[][] = Array.from({ length: n }, () => []);
  for (const edge of edges) (out[index.get(edge.from) as number] as number[]).push(index.get(edge.to) as number);
  const has = (a: number, b: number): boolean => seen.has(`${a} ${b}`);
  const degree = (v: number): number => (out[v] as number[]).length;
  const above = (a: number, b: number): boolean => degree(a) > degree(b) || (degree(a) === degree(b) && a < b);

  const stated = nodes.map((node) => node.role);
  const allStated = stated.every((role) => role !== undefined);
  const roles: Role[] = allStated ? (stated as Role[]) : inferRoles(n, out, has, degree);
  const roleGuess = (v: number): string | undefined => {
    if (allStated) return undefined;
    const role = roles[v] as Role;
    const id = (nodes[v] as { id: string }).id;
    const count = degree(v);
    if (role === "supervisor") return `${graph.source} does not say who supervises: ${id} hands work to ${count} agent${count === 1 ? "" : "s"} and gets it back`;
    if (role === "worker") return `${graph.source} does not say: a supervisor hands work to ${id}`;
    return `${graph.source} does not say: ${id} hands whole tasks on`;
  };

  const decidedEdges: DecidedEdge[] = [];
  // Branch names used by more than one edge out of the same agent: a fan-out, not a route.
  const labelUses = new Map<string, number>();
  const labelKey = (edge: ImportedEdge): string => `${edge.from}\u0000${edge.conditional?.label ?? `\u0001${edge.to}`}`;
  for (const edge of edges) if (edge.conditional !== undefined) labelUses.set(labelKey(edge), (labelUses.get(labelKey(edge)) ?? 0) + 1);
  const routed = (edge: ImportedEdge): boolean => edge.conditional !== undefined && labelUses.get(labelKey(edge)) === 1;
  const conditionalCount = new Map<string, number>();
  for (const edge of edges) if (routed(edge)) conditionalCount.set(edge.from, (conditionalCount.get(edge.from) ?? 0) + 1);
  const conditionalSeen = new Map<string, number>();
  const stepsUsed = new Map<string, Set<string>>();
  const bounded = graph.boundsStated === true ? new Set<string>() : backEdges(n, out, graph.entries.map((id) => index.get(id) as number));
  for (const edge of edges) {
    const a = index.get(edge.from) as number;
    const b = index.get(edge.to) as number;
    const kind: Guessed<EdgeKind> =
      edge.kind !== undefined ? { value: edge.kind } : { value: inferKind(roles, a, b, above, has), guess: `${graph.source} edges have no kind; this one follows from the roles` };
    let guard: DecidedEdge["guard"];
    const count = conditionalCount.get(edge.from) ?? 0;
    if (edge.guard !== undefined) {
      guard = { text: edge.guard };
    } else if (routed(edge) && count >= 2) {
      const at = (conditionalSeen.get(edge.from) ?? 0) + 1;
      conditionalSeen.set(edge.from, at);
      const label = edge.conditional?.label;
      if (at === count) {
        guard = { text: "otherwise", guess: `${graph.source} routes out of ${edge.from} at run time; this last branch takes what no other matches` };
      } else {
        const used = stepsUsed.get(edge.from) ?? new Set<string>();
        stepsUsed.set(edge.from, used);
        let step = toSeamName(label ?? edge.to);
        if (used.has(step)) step = name(edge.to);
        used.add(step);
        guard = { text: `when allowed_next_step is ${step}`, guess: `${graph.source} routes out of ${edge.from} at run time${label === undefined ? "" : ` (branch ${JSON.stringify(label)})`}: the sender names the next step` };
      }
    }
    const maxRounds: Guessed<number> | undefined =
      edge.maxRounds !== undefined
        ? { value: edge.maxRounds }
        : bounded.has(`${a} ${b}`)
          ? { value: GUESSED_ROUNDS, guess: `${graph.source} sets no bound on the cycle this edge closes` }
          : undefined;
    decidedEdges.push({
      from: name(edge.from),
      to: name(edge.to),
      kind,
      ...(guard === undefined ? {} : { guard }),
      ...(edge.require === undefined || edge.require.length === 0 ? {} : { require: edge.requireGuess === undefined ? { value: edge.require } : { value: edge.require, guess: edge.requireGuess } }),
      ...(maxRounds === undefined ? {} : { maxRounds }),
      observe: edge.observe === true,
      ...(edge.minConfidence === undefined ? {} : { minConfidence: edge.minConfidence }),
      ...(edge.gate === true ? { gate: true } : {}),
      ...(edge.fanOutName === undefined ? {} : { fanOutName: edge.fanOutName }),
      ...(edge.fanOut !== undefined
        ? { fanOut: edge.fanOut }
        : edge.conditional !== undefined && !routed(edge)
          ? { fanOut: `${graph.source} takes every edge out of ${edge.from} whose condition ${JSON.stringify(edge.conditional.label ?? "")} matches, at once` }
          : {}),
    });
  }

  const agents = nodes.map((node, v): DecidedAgent => {
    const terminalNames = createNameMap();
    const guess = roleGuess(v);
    return {
      name: name(node.id),
      source: node.id,
      role: guess === undefined ? { value: roles[v] as Role } : { value: roles[v] as Role, guess },
      ...(node.version === undefined ? {} : { version: node.version }),
      ...(node.gate === true ? { gate: true } : {}),
      ...(node.effect === undefined ? {} : { effect: node.effect }),
      ...(node.join === undefined ? {} : { join: node.join }),
      terminals: node.ends.map((end) => ({
        name: terminalNames.name(end.name),
        outcome:
          end.outcome !== undefined
            ? { value: end.outcome }
            : { value: "complete", guess: `${graph.source} says the task can end at ${node.id}, not how: complete assumed` },
        ...(end.description === undefined ? {} : { description: end.description }),
      })),
    };
  });
  const entries = graph.entries.map(name);
  return {
    name: toSeamName(graph.name),
    source: graph.source,
    agents,
    edges: decidedEdges,
    entries: graph.entryGuess === undefined ? { value: entries } : { value: entries, guess: graph.entryGuess },
    ...(graph.hopLimit === undefined ? {} : { hopLimit: graph.hopLimit }),
    notes,
    renamed: names.renamed,
  };
}

/**
 * Roles from the shape of the graph (see the module comment): a supervisor is a hub of two-way
 * pairs, every agent it hands to hands back and every agent that hands to it gets work back.
 */
function inferRoles(n: number, out: readonly number[][], has: (a: number, b: number) => boolean, degree: (v: number) => number): Role[] {
  const into: number[][] = Array.from({ length: n }, () => []);
  for (let a = 0; a < n; a++) for (const b of out[a] as number[]) (into[b] as number[]).push(a);
  const supervisor = new Uint8Array(n);
  for (let a = 0; a < n; a++) {
    const targets = out[a] as number[];
    const hub = targets.some((b) => has(b, a) && degree(a) > degree(b));
    if (hub && targets.every((b) => has(b, a)) && (into[a] as number[]).every((x) => has(a, x))) supervisor[a] = 1;
  }
  const worker = new Uint8Array(n);
  for (let a = 0; a < n; a++) if (supervisor[a] === 1) for (const b of out[a] as number[]) if (supervisor[b] === 0) worker[b] = 1;
  return Array.from({ length: n }, (_, v): Role => (supervisor[v] === 1 ? "supervisor" : worker[v] === 1 ? "worker" : "peer"));
}

function inferKind(
  roles: readonly Role[],
  a: number,
  b: number,
  above: (a: number, b: number) => boolean,
  has: (a: number, b: number) => boolean,
): EdgeKind {
  const from = roles[a];
  const to = roles[b];
  if (from === "supervisor" && to === "supervisor") return !has(b, a) || above(a, b) ? "delegate" : "return";
  if (from === "supervisor") return "delegate";
  if (to === "supervisor") return "return";
  return "transfer";
}

/**
 * The edges (`"a b"` keys) that close a cycle in an iterative depth-first walk from `starts`, then
 * from every vertex not yet visited, in order: removing them leaves no cycle.
 */
function backEdges(n: number, out: readonly number[][], starts: readonly number[]): Set<string> {
  const state = new Uint8Array(n); // 0 new, 1 on the stack, 2 done
  const found = new Set<string>();
  const roots = [...starts, ...Array.from({ length: n }, (_, v) => v)];
  for (const root of roots) {
    if (state[root] !== 0) continue;
    const stack: [number, number][] = [[root, 0]];
    state[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as [number, number];
      const [v, i] = top;
      const next = (out[v] as number[])[i];
      if (next === undefined) {
        state[v] = 2;
        stack.pop();
        continue;
      }
      top[1] = i + 1;
      if (state[next] === 1) found.add(`${v} ${next}`);
      else if (state[next] === 0) {
        state[next] = 1;
        stack.push([next, 0]);
      }
    }
  }
  return found;
}
