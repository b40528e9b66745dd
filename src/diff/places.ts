/**
 * Where a finding points. Things that exist in the new version are shown where they are declared;
 * a removed thing is shown at the nearest declaration that survives (its agent, else the graph's
 * name), and the finding's related location gives where it was in the old version.
 */
import type { CheckedAgent, CheckedEdge } from "../analysis/model.js";
import type { Range } from "../core/source-file.js";
import type { GraphItem } from "../parser/ast.js";
import type { Place } from "./finding.js";
import type { GraphSide } from "./graph-pair.js";

function at(side: GraphSide, range: Range): Place {
  return { file: side.file, range };
}

/** The graph's name. */
export function graphPlace(side: GraphSide): Place {
  return at(side, side.graph.decl.name.range);
}

/** An agent's name in its declaration. */
export function agentPlace(side: GraphSide, agent: CheckedAgent): Place {
  return at(side, agent.decl.name.range);
}

/** The agent's declaration when it exists in this version, else the graph's name. */
export function nearestAgentPlace(side: GraphSide, id: string): Place {
  const agent = side.agents.get(id);
  return agent === undefined ? graphPlace(side) : agentPlace(side, agent);
}

/** `kind from -> to`: the edge's head, without its block. */
export function edgePlace(side: GraphSide, edge: CheckedEdge): Place {
  return at(side, { start: edge.decl.range.start, end: edge.decl.to.range.end });
}

/** The edge's `max_rounds` value, else its head. */
export function maxRoundsPlace(side: GraphSide, edge: CheckedEdge): Place {
  const item = edge.decl.items.find((i) => i.kind === "MaxRounds" && !i.hasError);
  return item?.kind === "MaxRounds" && !item.hasError ? at(side, item.value.range) : edgePlace(side, edge);
}

/** The value of the edge's first setting line of node kind `node` (`Repairs`, `MinConfidence`), the line itself for a flag, else the edge's head. */
export function settingPlace(side: GraphSide, edge: CheckedEdge, node: "Repairs" | "MinConfidence" | "Gate"): Place {
  const item = edge.decl.items.find((i) => i.kind === node && !i.hasError);
  if (item === undefined || item.hasError) return edgePlace(side, edge);
  return at(side, "value" in item && item.value !== undefined ? item.value.range : item.range);
}

/** The edge's guard, else its head. */
export function guardPlace(side: GraphSide, edge: CheckedEdge): Place {
  return edge.decl.guard === undefined ? edgePlace(side, edge) : at(side, edge.decl.guard.range);
}

/** The edge's `observe` keyword, else its head. */
export function observePlace(side: GraphSide, edge: CheckedEdge): Place {
  return edge.decl.observe === undefined ? edgePlace(side, edge) : at(side, edge.decl.observe);
}

/** The `require` path that declares `field` on the edge itself, else the edge's head. */
export function requirePlace(side: GraphSide, edge: CheckedEdge, field: string): Place {
  for (const item of edge.decl.items) {
    if (item.kind !== "Require") continue;
    const path = item.paths.find((p) => p.text === field);
    if (path !== undefined) return at(side, path.range);
  }
  return edgePlace(side, edge);
}

/** The first graph setting of a kind (`entry`, `hop_limit`, `loop_signature`...). */
function setting<K extends GraphItem["kind"]>(side: GraphSide, kind: K): Extract<GraphItem, { kind: K }> | undefined {
  return side.graph.decl.items.find((item): item is Extract<GraphItem, { kind: K }> => item.kind === kind);
}

/** The agent's name in the `entry` line, else the graph's name. */
export function entryPlace(side: GraphSide, id: string): Place {
  for (const item of side.graph.decl.items) {
    if (item.kind !== "Entry" || item.hasError) continue;
    const name = item.agents.find((a) => a.name === id);
    if (name !== undefined) return at(side, name.range);
  }
  return graphPlace(side);
}

/** The `hop_limit` value, else the graph's name (`auto` by default). */
export function hopLimitPlace(side: GraphSide): Place {
  const item = setting(side, "HopLimit");
  return item === undefined ? graphPlace(side) : at(side, item.value.range);
}

/** The `on_hop_limit` value, else the graph's name. */
export function onHopLimitPlace(side: GraphSide): Place {
  const item = setting(side, "OnHopLimit");
  return item === undefined ? graphPlace(side) : at(side, item.action.range);
}

/** The `loop_signature` line, else the graph's name. */
export function loopSignaturePlace(side: GraphSide): Place {
  const item = setting(side, "LoopSignature");
  return item === undefined ? graphPlace(side) : at(side, item.range);
}

/** The `envelope` version, else the graph's name. */
export function envelopePlace(side: GraphSide): Place {
  const item = setting(side, "Envelope");
  return item === undefined ? graphPlace(side) : at(side, item.version.range);
}

/** A terminal's name, else its agent's name. */
export function terminalPlace(side: GraphSide, agent: CheckedAgent, terminal: string): Place {
  for (const item of agent.decl.items) {
    if (item.kind === "Terminal" && !item.hasError && item.name.name === terminal) return at(side, item.name.range);
  }
  return agentPlace(side, agent);
}

/** The agent's `version` string, else its name. */
export function versionPlace(side: GraphSide, agent: CheckedAgent): Place {
  const item = agent.decl.items.find((i) => i.kind === "AgentVersion" && !i.hasError);
  return item?.kind === "AgentVersion" && !item.hasError ? at(side, item.value.range) : agentPlace(side, agent);
}
