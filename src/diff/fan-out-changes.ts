/**
 * What changed in fan-outs and joins between two versions of a graph: kept delegations that
 * became or stopped being branches, and kept agents whose join waits for something else or
 * handles failure otherwise. The finding modules `branch-*` and `join-*` report them.
 */
import type { CheckedAgent, CheckedEdge, CheckedJoin } from "../analysis/model.js";
import { joinLine } from "../parser/print.js";
import type { Place } from "./finding.js";
import type { GraphPair, GraphSide } from "./graph-pair.js";
import { agentPlace, edgePlace } from "./places.js";

/** A kept edge whose `fan_out` changed: `was` and `now` are the fan-out names (absent: no fan-out). */
export interface BranchChange {
  readonly edge: CheckedEdge;
  readonly old: CheckedEdge;
  readonly was?: string;
  readonly now?: string;
}

/** The kept delegations whose fan-out changed, in the new graph's edge order. */
export function branchChanges(pair: GraphPair): BranchChange[] {
  const out: BranchChange[] = [];
  for (const { old, new: edge } of pair.keptEdges) {
    if (edge.kind !== "delegate" || old.fanOut === edge.fanOut) continue;
    out.push({ edge, old, ...(old.fanOut === undefined ? {} : { was: old.fanOut }), ...(edge.fanOut === undefined ? {} : { now: edge.fanOut }) });
  }
  return out;
}

/** The edge's `fan_out` line, else its head. */
export function fanOutPlace(side: GraphSide, edge: CheckedEdge): Place {
  const item = edge.decl.items.find((i) => i.kind === "FanOut" && !i.hasError);
  return item === undefined ? edgePlace(side, edge) : { file: side.file, range: item.range };
}

/** The agent's `join` line, else its name. */
export function joinPlace(side: GraphSide, agent: CheckedAgent): Place {
  return agent.join === undefined ? agentPlace(side, agent) : { file: side.file, range: agent.join.decl.range };
}

/** A kept agent whose join changed, in the new graph's agent order. */
export interface JoinChange {
  readonly agent: CheckedAgent;
  readonly old: CheckedAgent;
  /** What it waits for (presence, wait, inputs) changed. */
  readonly waitChanged: boolean;
  /** Its deadline or failure policy changed (both versions have a join). */
  readonly policyChanged: boolean;
}

/** The kept agents whose join changed. */
export function joinChanges(pair: GraphPair): JoinChange[] {
  const out: JoinChange[] = [];
  for (const { old, new: agent } of pair.keptAgents) {
    const a = old.join;
    const b = agent.join;
    if (a === undefined && b === undefined) continue;
    const waitChanged = a === undefined || b === undefined || a.wait !== b.wait || a.inputs.join("\n") !== b.inputs.join("\n");
    const policyChanged = a !== undefined && b !== undefined && (a.within !== b.within || policyText(a) !== policyText(b));
    if (waitChanged || policyChanged) out.push({ agent, old, waitChanged, policyChanged });
  }
  return out;
}

/** `join all of a, b`, as the line is written, or `no join`. */
export function describeJoin(join: CheckedJoin | undefined): string {
  return join === undefined ? "no join" : `\`${joinLine(join.decl)}\``;
}

/** `escalate`, or the terminal's name. */
export function policyText(join: CheckedJoin): string {
  return join.otherwise === "escalate" ? "escalate" : join.otherwise.terminal;
}
