/**
 * Which fan-outs and joins of a source graph the `.seam` file can state (docs/language.md,
 * "Fan-out and joins"). A fan-out is written as `fan_out NAME` on delegate edges, so the node
 * that fans out becomes a supervisor and the nodes it hands work to its workers. That fits only
 * where the rest of their edges fit those roles: a supervisor is entered by a delegation or a
 * return (never by a transfer), a delegation comes back or ends. A fan-out that does not fit is
 * written as plain edges, each marked `fan-out` with the edge that does not fit; a join of such a
 * fan-out likewise. Deterministic: fan-outs are tried in the order of their first edge.
 */
import type { Role } from "../core/vocabulary.js";
import type { ImportedBranch, ImportedJoin } from "./model.js";
import { inferKind, type Topology } from "./roles.js";

/** A kept edge by vertex index, with what the source says about its fan-out. */
export interface PlanEdge {
  readonly a: number;
  readonly b: number;
  readonly parallel?: ImportedBranch;
}

/** What {@link planFanOuts} decided. */
export interface FanOutPlan {
  /** The roles, with each written fan-out's node a supervisor and its targets workers. */
  readonly roles: readonly Role[];
  /** Branch edges written with `fan_out NAME` (edge index -> the source's group name and any guess). */
  readonly branches: ReadonlyMap<number, ImportedBranch>;
  /** Edges of fan-outs and joins written as plain edges (edge index -> why, for the marker). */
  readonly plain: ReadonlyMap<number, string>;
  /** Vertices made supervisors because they fan out, with the group that made them one. */
  readonly owners: ReadonlyMap<number, string>;
  /** Joins written (vertex -> the join, inputs as vertices). */
  readonly joins: ReadonlyMap<number, { readonly wait: ImportedJoin["wait"]; readonly inputs: readonly number[]; readonly guess?: string }>;
}

/**
 * Plans the fan-outs of `edges` (grouped by source vertex and `parallel.group`) and the joins of
 * `waits` (vertex -> join, inputs as vertices; an input without a kept edge is undefined).
 *
 * @param ids - each vertex's source id, for the reasons
 * @param ends - whether a vertex has a terminal
 * @param rolesStated - the source states every role: nothing is changed, every fan-out is plain
 */
export function planFanOuts(
  source: string,
  ids: readonly string[],
  edges: readonly PlanEdge[],
  waits: ReadonlyMap<number, ImportedJoin & { readonly at: readonly (number | undefined)[]; readonly afterVertex: number | undefined }>,
  top: Topology,
  start: readonly Role[],
  ends: (v: number) => boolean,
  rolesStated: boolean,
): FanOutPlan {
  const roles = start.slice();
  const branches = new Map<number, ImportedBranch>();
  const plain = new Map<number, string>();
  const owners = new Map<number, string>();
  const accepted = new Set<string>();
  const groups = new Map<string, number[]>();
  edges.forEach((edge, i) => {
    if (edge.parallel === undefined) return;
    const key = `${edge.a}\u0000${edge.parallel.group}`;
    const list = groups.get(key);
    if (list === undefined) groups.set(key, [i]);
    else list.push(i);
  });
  const id = (v: number): string => ids[v] as string;
  const edgeByPair = new Map<string, number>();
  edges.forEach((edge, i) => edgeByPair.set(`${edge.a} ${edge.b}`, i));
  const isBranch = (a: number, b: number, extra: ReadonlySet<number>): boolean => {
    const i = edgeByPair.get(`${a} ${b}`);
    return i !== undefined && (branches.has(i) || extra.has(i));
  };

  /** Why edge a -> b does not fit roles `r` (a role-mismatch or missing-return `seam check` would report), or undefined. */
  const misfit = (r: readonly Role[], a: number, b: number, extra: ReadonlySet<number>): string | undefined => {
    const kind = inferKind(r, a, b, top);
    if (kind === "delegate") {
      if (r[b] === "peer") return `${id(a)} -> ${id(b)} would delegate to a peer`;
      if (!top.has(b, a) && !ends(b) && !isBranch(a, b, extra)) return `${id(a)} -> ${id(b)} would delegate work that never comes back or ends`;
    } else if (kind === "return") {
      if (r[a] === "peer") return `${id(a)} -> ${id(b)} would hand a whole task to a supervisor`;
      if (!top.has(b, a)) return `${id(a)} -> ${id(b)} would return work ${id(b)} never delegated`;
    }
    return undefined;
  };
  // Edge checks left: each accepted fan-out changes a vertex's role (at most twice per vertex),
  // so accepted ones cost O(edges) in all; refused ones are held to this budget, after which the
  // remaining fan-outs are written as plain edges (deterministically, whatever the machine).
  let budget = 8 * (edges.length + ids.length) + 1024;
  /** The first edge of the `changed` vertices that does not fit `roles`; "" when out of budget. */
  const firstMisfit = (changed: readonly number[], extra: ReadonlySet<number>): string | undefined => {
    for (const v of changed) {
      for (const [a, b] of pairsOf(v)) {
        if (--budget < 0) return "";
        const why = misfit(roles, a, b, extra);
        if (why !== undefined) return why;
      }
    }
    return undefined;
  };
  function* pairsOf(v: number): Generator<[number, number]> {
    for (const b of top.out[v] as readonly number[]) yield [v, b];
    for (const a of top.into[v] as readonly number[]) yield [a, v];
  }

  for (const [key, list] of groups) {
    const first = edges[list[0] as number] as PlanEdge;
    const from = first.a;
    const group = (first.parallel as ImportedBranch).group;
    const what = `${source} runs ${list.map((i) => id((edges[i] as PlanEdge).b)).join(", ")} at once from ${id(from)}`;
    let why: string;
    if (rolesStated) why = `${what}; written as plain edges: ${source} states the roles, and ${id(from)} is not a supervisor`;
    else if (list.length < 2) why = `${source} may run ${id(first.b)} several times at once from ${id(from)}; a Seam fan-out has one branch per agent`;
    else {
      // Tried in place: the roles the fan-out needs, undone if an edge does not fit them.
      const undo: [number, Role][] = [];
      const give = (v: number, role: Role): void => {
        if (roles[v] === role) return;
        undo.push([v, roles[v] as Role]);
        roles[v] = role;
      };
      const targets = top.out[from] as readonly number[];
      budget -= targets.length;
      give(from, "supervisor");
      for (const b of targets) if (roles[b] !== "supervisor") give(b, "worker");
      const misfits = budget < 0 ? "" : firstMisfit(undo.map(([v]) => v), new Set(list));
      if (misfits === undefined) {
        accepted.add(key);
        for (const i of list) branches.set(i, (edges[i] as PlanEdge).parallel as ImportedBranch);
        owners.set(from, group);
        continue;
      }
      for (let u = undo.length - 1; u >= 0; u--) roles[(undo[u] as [number, Role])[0]] = (undo[u] as [number, Role])[1];
      why =
        misfits === ""
          ? `${what}; written as plain edges: the graph has more fan-outs than seam import checks`
          : `${what}; written as plain edges: only a supervisor fans out, and if ${id(from)} were one, ${misfits}`;
    }
    for (const i of list) plain.set(i, why);
  }

  const joins = new Map<number, { wait: ImportedJoin["wait"]; inputs: number[]; guess?: string }>();
  for (const [v, join] of waits) {
    const inputs = join.at.filter((x): x is number => x !== undefined);
    const key = join.afterVertex === undefined || join.after === undefined ? undefined : `${join.afterVertex}\u0000${join.after.group}`;
    let why: string | undefined;
    if (key === undefined) why = "no one fan-out starts all its inputs";
    else if (!accepted.has(key)) why = "the fan-out it waits for is written as plain edges";
    else if (inputs.length < join.at.length) why = "some of its inputs hand it no work";
    else why = inputs.map((a) => misfit(roles, a, v, new Set())).find((w) => w !== undefined);
    if (why === undefined) {
      joins.set(v, { wait: join.wait, inputs, ...(join.guess === undefined ? {} : { guess: join.guess }) });
      continue;
    }
    for (const a of inputs) {
      const i = edgeByPair.get(`${a} ${v}`) as number;
      if (!plain.has(i)) plain.set(i, `${source} waits at ${id(v)} for ${join.inputs.join(", ")}; written as plain edges: ${why}`);
    }
  }
  return { roles, branches, plain, owners, joins };
}
