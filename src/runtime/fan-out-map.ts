/**
 * The fan-outs of a graph as ingest reads them: each branch's id (`NAME/AGENT`, what `hop.branch`
 * says), its siblings, and the join that waits for it. Built once per graph from its data; the
 * work is linear in the graph.
 */
import type { AgentInfo, EdgeInfo } from "./graph-data.js";
import type { ClaimJoin } from "./seen-store.js";

/** One branch of a fan-out, from the graph. */
export interface FanBranch {
  /** `NAME/AGENT`: the fan-out's name and the agent its branch edge delegates to. */
  readonly id: string;
  readonly fanOut: string;
  /** The supervisor that fans out. */
  readonly from: string;
  /** The agent the branch edge delegates to. */
  readonly agent: string;
  /** Every branch id of the fan-out, in edge order (this one included). */
  readonly siblings: readonly string[];
  /** The join that waits for the fan-out's branches; `null` when none does. */
  readonly join: ClaimJoin | null;
}

/** The fan-outs of one graph. */
export interface FanOutMap {
  /** Every branch id, in edge order. */
  readonly ids: ReadonlySet<string>;
  /** The branch of a `fan_out` edge. */
  readonly ofEdge: ReadonlyMap<EdgeInfo, FanBranch>;
  /** The branch of an id (the first, should two supervisors name the same fan-out and target). */
  readonly byId: ReadonlyMap<string, FanBranch>;
  /** The join agents' inputs, by join agent. */
  readonly inputs: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * Maps the fan-outs of a graph. A fan-out's join is the first join agent (in agent order) one of
 * whose inputs its branches reach before they reach any join agent.
 */
export function createFanOutMap(agents: readonly AgentInfo[], edges: readonly EdgeInfo[]): FanOutMap {
  const groups = new Map<string, EdgeInfo[]>();
  for (const edge of edges) {
    if (edge.fanOut === undefined) continue;
    const key = `${edge.from}\u0000${edge.fanOut}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [edge]);
    else group.push(edge);
  }
  const inputs = new Map<string, ReadonlySet<string>>();
  for (const agent of agents) if (agent.join !== undefined) inputs.set(agent.id, new Set(agent.join.inputs));
  const out = new Map<string, string[]>();
  for (const edge of edges) {
    const list = out.get(edge.from);
    if (list === undefined) out.set(edge.from, [edge.to]);
    else list.push(edge.to);
  }
  const ids = new Set<string>();
  const ofEdge = new Map<EdgeInfo, FanBranch>();
  const byId = new Map<string, FanBranch>();
  for (const group of groups.values()) {
    const first = group[0] as EdgeInfo;
    const siblings = group.map((edge) => `${edge.fanOut}/${edge.to}`);
    const join = joinOf(group.map((edge) => edge.to), agents, inputs, out);
    for (const edge of group) {
      const branch: FanBranch = { id: `${edge.fanOut}/${edge.to}`, fanOut: first.fanOut as string, from: first.from, agent: edge.to, siblings, join };
      ids.add(branch.id);
      ofEdge.set(edge, branch);
      if (!byId.has(branch.id)) byId.set(branch.id, branch);
    }
  }
  return { ids, ofEdge, byId, inputs };
}

/** Breadth-first from the branch targets, not leaving join agents: the first join whose input is reached. */
function joinOf(targets: readonly string[], agents: readonly AgentInfo[], inputs: ReadonlyMap<string, ReadonlySet<string>>, out: ReadonlyMap<string, readonly string[]>): ClaimJoin | null {
  const reached = new Set<string>(targets);
  const queue = [...targets];
  for (let i = 0; i < queue.length; i++) {
    const agent = queue[i] as string;
    if (inputs.has(agent)) continue;
    for (const next of out.get(agent) ?? []) {
      if (reached.has(next)) continue;
      reached.add(next);
      queue.push(next);
    }
  }
  for (const agent of agents) {
    const join = agent.join;
    if (join === undefined) continue;
    if (join.inputs.some((input) => reached.has(input) && (out.get(input) ?? []).includes(agent.id))) {
      const policy = join.otherwise;
      const outcome = policy === "escalate" ? null : (agent.terminals.find((t) => t.id === policy)?.outcome ?? null);
      return { agent: agent.id, need: join.need, withinMs: join.within === undefined ? null : join.within * 1000, otherwise: policy, outcome };
    }
  }
  return null;
}
