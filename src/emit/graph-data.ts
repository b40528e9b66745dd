/**
 * The checked graph as the plain data that emitted modules export and `createAccept` takes
 * (`seam-handoff/runtime`'s `GraphInfo`, `AgentInfo`, `EdgeInfo`).
 */
import { joinNeeds, type CheckedGraph } from "../analysis/model.js";
import type { AgentInfo, EdgeInfo, GraphInfo } from "../runtime/graph-data.js";

/**
 * The graph's settings.
 *
 * @throws Error when the graph has no hop limit value: `check()` reports an error for every
 * such graph, and emission runs only on graphs without errors
 */
export function toGraphInfo(graph: CheckedGraph): GraphInfo {
  const hopLimit = graph.hopLimit.value;
  if (hopLimit === undefined) throw new Error(`internal: graph ${graph.name} has no hop limit; it should have an error`);
  return {
    name: graph.name,
    envelope: { major: graph.envelope.major, minor: graph.envelope.minor },
    entries: [...graph.entries],
    hopLimit,
    onHopLimit: graph.onHopLimit,
    loopSignature: [...graph.loopSignature],
  };
}

/** The agents, in declaration order. */
export function toAgentInfos(graph: CheckedGraph): AgentInfo[] {
  return graph.agents.map((agent) => ({
    id: agent.id,
    role: agent.role,
    ...(agent.version !== undefined ? { version: agent.version } : {}),
    ...(agent.gate === true ? { gate: true as const } : {}),
    terminals: agent.terminals.map((terminal) => ({
      id: terminal.id,
      outcome: terminal.outcome,
      ...(terminal.description !== undefined ? { description: terminal.description } : {}),
    })),
    ...(agent.join !== undefined
      ? {
          join: {
            inputs: [...agent.join.inputs],
            need: joinNeeds(agent.join),
            ...(agent.join.within !== undefined ? { within: agent.join.within } : {}),
            otherwise: agent.join.otherwise === "escalate" ? "escalate" : agent.join.otherwise.terminal,
          },
        }
      : {}),
  }));
}

/**
 * The edges, in declaration order.
 *
 * @param edgeContracts - the contract index of each edge (see `addGraphSchemas`)
 */
export function toEdgeInfos(graph: CheckedGraph, edgeContracts: readonly number[]): EdgeInfo[] {
  return graph.edges.map((edge, i) => ({
    kind: edge.kind,
    from: edge.from,
    to: edge.to,
    observe: edge.observe,
    ...(edge.maxRounds !== undefined ? { maxRounds: edge.maxRounds } : {}),
    ...(edge.repairs !== undefined ? { repairs: edge.repairs } : {}),
    ...(edge.guard !== undefined ? { guard: { otherwise: edge.guard.otherwise, conditions: edge.guard.conditions.map((c) => ({ ...c })) } } : {}),
    ...(edge.minConfidence !== undefined ? { minConfidence: { value: edge.minConfidence.value, decisions: [...edge.minConfidence.decisions] } } : {}),
    ...(edge.gate === true ? { gate: true as const } : {}),
    require: [...edge.require],
    ...(edge.fanOut !== undefined && edge.kind === "delegate" ? { fanOut: edge.fanOut } : {}),
    contract: edgeContracts[i] as number,
  }));
}
