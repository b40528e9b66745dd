/**
 * Roles and edge kinds from the shape of a graph, for sources that state neither (see
 * `decide.ts`): the first guess, before fan-outs (`fan-outs.ts`) make their owners supervisors.
 * Vertices are indices into the graph's node list; `has(a, b)` says whether an edge a -> b is kept.
 */
import type { EdgeKind, Role } from "../core/vocabulary.js";

/** A graph by vertex index: kept edges out of each vertex, and the lookups the guesses use. */
export interface Topology {
  readonly n: number;
  readonly out: readonly (readonly number[])[];
  readonly into: readonly (readonly number[])[];
  /** Whether an edge a -> b is kept. */
  has(a: number, b: number): boolean;
  /** Whether `a` ranks above `b` between two supervisors: more outgoing edges, then earlier. */
  above(a: number, b: number): boolean;
}

/**
 * Roles from the shape of the graph: a supervisor is a hub of two-way pairs, every agent it
 * hands to hands back and every agent that hands to it gets work back; an agent a supervisor
 * hands work to is a worker; the rest are peers.
 */
export function inferRoles(top: Topology): Role[] {
  const { n, out, into, has } = top;
  const degree = (v: number): number => (out[v] as readonly number[]).length;
  const supervisor = new Uint8Array(n);
  for (let a = 0; a < n; a++) {
    const targets = out[a] as readonly number[];
    const hub = targets.some((b) => has(b, a) && degree(a) > degree(b));
    if (hub && targets.every((b) => has(b, a)) && (into[a] as readonly number[]).every((x) => has(a, x))) supervisor[a] = 1;
  }
  const worker = new Uint8Array(n);
  for (let a = 0; a < n; a++) if (supervisor[a] === 1) for (const b of out[a] as readonly number[]) if (supervisor[b] === 0) worker[b] = 1;
  return Array.from({ length: n }, (_, v): Role => (supervisor[v] === 1 ? "supervisor" : worker[v] === 1 ? "worker" : "peer"));
}

/**
 * The kind of edge a -> b under `roles`: supervisor -> any `delegate`, any -> supervisor
 * `return`, between two supervisors the higher one delegates (the lower returns when the pair is
 * two-way), anything else `transfer`.
 */
export function inferKind(roles: readonly Role[], a: number, b: number, top: Topology): EdgeKind {
  const from = roles[a];
  const to = roles[b];
  if (from === "supervisor" && to === "supervisor") return !top.has(b, a) || top.above(a, b) ? "delegate" : "return";
  if (from === "supervisor") return "delegate";
  if (to === "supervisor") return "return";
  return "transfer";
}
