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
 * - **Fan-outs and joins** (`fan-outs.ts`). Edges the source takes at once become `fan_out NAME`
 *   delegations of a supervisor, and a node that waits for them a `join`, where the roles fit;
 *   otherwise plain edges marked `fan-out`.
 * - **Routes.** The conditional edges of one router (two or more) that are no fan-out branch
 *   become `when allowed_next_step is <branch>` routes, the last one `otherwise` (the source
 *   raises on a branch it does not know; Seam needs a route for every state). A router with one
 *   conditional edge gets no guard.
 * - **Cycles.** Each edge that closes a cycle in a depth-first walk from the entries (then from
 *   the agents left, in order) and has no stated bound gets `max_rounds` {@link GUESSED_ROUNDS}.
 * - **Ends.** An end without an outcome is `complete`.
 *
 * An edge from an agent to itself is left out (Seam has no self-handoff), as is a second edge
 * between the same two agents; both are noted.
 */
import type { EdgeKind, Outcome, Role } from "../core/vocabulary.js";
import type { ImportedEdge, ImportedGraph, ImportedNode } from "./model.js";
import { planFanOuts } from "./fan-outs.js";
import { createNameMap, toSeamName, type RenamedName } from "./names.js";
import { inferKind, inferRoles, type Topology } from "./roles.js";

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
  /** The join as written after `join`, with why when guessed. */
  readonly join?: { readonly text: string; readonly guess?: string };
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
  /** The fan-out the edge is a branch of (`fan_out NAME`), with why when guessed. */
  readonly fanOutName?: { readonly name: string; readonly guess?: string };
  readonly require?: Guessed<readonly string[]>;
  readonly maxRounds?: Guessed<number>;
  readonly observe: boolean;
  /** Why this edge of a fan-out or a join is written as a plain edge. */
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
  const names = createNameMap([], graph.nodes.map((node) => node.id));
  const notes = [...graph.notes];
  const nodes = graph.nodes;
  const index = new Map<string, number>();
  nodes.forEach((node, i) => {
    names.name(node.id);
    index.set(node.id, i);
  });
  const name = (id: string): string => names.name(id);

  // Edges kept: no self-handoffs (each noted once, however many routes loop back), one per ordered pair.
  const seen = new Set<string>();
  const selfNoted = new Set<string>();
  const edges = graph.edges.filter((edge) => {
    if (edge.from === edge.to) {
      // A noun phrase, as every note is: the CLI prints "left out <note>", the file "Left out: <note>."
      if (!selfNoted.has(edge.from)) notes.push(`the edge from ${JSON.stringify(edge.from)} to itself (in Seam an agent that keeps working needs no handoff)`);
      selfNoted.add(edge.from);
      return false;
    }
    const key = `${index.get(edge.from)} ${index.get(edge.to)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const n = nodes.length;
  const out: number[][] = Array.from({ length: n }, () => []);
  const into: number[][] = Array.from({ length: n }, () => []);
  for (const edge of edges) {
    const a = index.get(edge.from) as number;
    const b = index.get(edge.to) as number;
    (out[a] as number[]).push(b);
    (into[b] as number[]).push(a);
  }
  const has = (a: number, b: number): boolean => seen.has(`${a} ${b}`);
  const degree = (v: number): number => (out[v] as number[]).length;
  const top: Topology = { n, out, into, has, above: (a, b) => degree(a) > degree(b) || (degree(a) === degree(b) && a < b) };

  const stated = nodes.map((node) => node.role);
  const allStated = stated.every((role) => role !== undefined);
  const waits = new Map<number, NonNullable<ImportedNode["waits"]> & { at: (number | undefined)[]; afterVertex: number | undefined }>();
  nodes.forEach((node, v) => {
    if (node.waits === undefined) return;
    const at = node.waits.inputs.map((input) => {
      const a = index.get(input);
      return a !== undefined && has(a, v) ? a : undefined;
    });
    waits.set(v, { ...node.waits, at, afterVertex: node.waits.after === undefined ? undefined : index.get(node.waits.after.from) });
  });
  const plan = planFanOuts(
    graph.source,
    nodes.map((node) => node.id),
    edges.map((edge) => ({ a: index.get(edge.from) as number, b: index.get(edge.to) as number, ...(edge.parallel === undefined ? {} : { parallel: edge.parallel }) })),
    waits,
    top,
    allStated ? (stated as Role[]) : inferRoles(top),
    (v) => (nodes[v] as ImportedNode).ends.length > 0,
    allStated,
  );
  const roles = plan.roles;
  const roleGuess = (v: number): string | undefined => {
    if (allStated) return undefined;
    const role = roles[v] as Role;
    const id = (nodes[v] as { id: string }).id;
    const count = degree(v);
    const group = plan.owners.get(v);
    if (group !== undefined) return `${graph.source} does not say who supervises: ${id} fans out${group === id ? "" : ` (${group})`}, which only a supervisor does`;
    if (role === "supervisor") return `${graph.source} does not say who supervises: ${id} hands work to ${count} agent${count === 1 ? "" : "s"} and gets it back`;
    if (role === "worker") return `${graph.source} does not say: a supervisor hands work to ${id}`;
    return `${graph.source} does not say: ${id} hands whole tasks on`;
  };

  const decidedEdges: DecidedEdge[] = [];
  const routed = (edge: ImportedEdge): boolean => edge.conditional !== undefined && edge.parallel === undefined;
  const conditionalCount = new Map<string, number>();
  for (const edge of edges) if (routed(edge)) conditionalCount.set(edge.from, (conditionalCount.get(edge.from) ?? 0) + 1);
  const conditionalSeen = new Map<string, number>();
  const stepsUsed = new Map<string, Set<string>>();
  const bounded = graph.boundsStated === true ? new Set<string>() : backEdges(n, out, graph.entries.map((id) => index.get(id) as number));
  edges.forEach((edge, i) => {
    const a = index.get(edge.from) as number;
    const b = index.get(edge.to) as number;
    const kind: Guessed<EdgeKind> =
      edge.kind !== undefined ? { value: edge.kind } : { value: inferKind(roles, a, b, top), guess: `${graph.source} edges have no kind; this one follows from the roles` };
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
    const branch = plan.branches.get(i);
    const plainWhy = plan.plain.get(i);
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
      ...(edge.fanOutName !== undefined
        ? { fanOutName: { name: edge.fanOutName } }
        : branch !== undefined
          ? { fanOutName: { name: toSeamName(branch.group), ...(branch.guess === undefined ? {} : { guess: branch.guess }) } }
          : {}),
      ...(plainWhy === undefined ? {} : { fanOut: plainWhy }),
    });
  });

  function joinText(v: number): { join: NonNullable<DecidedAgent["join"]> } | Record<string, never> {
    const join = plan.joins.get(v);
    if (join === undefined) return {};
    const text = `${join.wait} of ${join.inputs.map((a) => name((nodes[a] as ImportedNode).id)).join(", ")}`;
    return { join: { text, ...(join.guess === undefined ? {} : { guess: join.guess }) } };
  }
  const agents = nodes.map((node, v): DecidedAgent => {
    const terminalNames = createNameMap([], node.ends.map((end) => end.name));
    const guess = roleGuess(v);
    return {
      name: name(node.id),
      source: node.id,
      role: guess === undefined ? { value: roles[v] as Role } : { value: roles[v] as Role, guess },
      ...(node.version === undefined ? {} : { version: node.version }),
      ...(node.gate === true ? { gate: true } : {}),
      ...(node.effect === undefined ? {} : { effect: node.effect }),
      ...(node.join !== undefined ? { join: { text: node.join } } : joinText(v)),
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
