/**
 * The settings of the edges and agents kept between two graph versions, read as `seam diff`
 * compares them: repairs with its default, confidence floors (none reads as 0), approval gates.
 */
import type { CheckedEdge } from "../analysis/model.js";
import type { FindingSubject, Place } from "./finding.js";
import type { GraphPair } from "./graph-pair.js";
import { agentPlace, edgePlace, settingPlace } from "./places.js";

/** The repairs an edge allows: its `repairs`, else the default of one (docs/language.md). */
export function repairsOf(edge: CheckedEdge): number {
  return edge.repairs ?? 1;
}

/** One kept edge whose floor changed (0 where it has none). */
export interface FloorChange {
  readonly edge: CheckedEdge;
  readonly old: number;
  readonly new: number;
}

/**
 * The kept edges whose `min_confidence` changed, in the new graph's order. A floor over every
 * decision and one over named decisions compare by value: which decisions it covers is the
 * floor's own business, and a change there shows as a raise or a lowering of one of them.
 */
export function floorChanges(pair: GraphPair): FloorChange[] {
  const changes: FloorChange[] = [];
  for (const { old, new: edge } of pair.keptEdges) {
    const before = old.minConfidence?.value ?? 0;
    const after = edge.minConfidence?.value ?? 0;
    if (before !== after) changes.push({ edge, old: before, new: after });
  }
  return changes;
}

/** An agent or kept edge that became, or stopped being, an approval gate. */
export interface GateChange {
  readonly added: boolean;
  /** `agent review` or `transfer a -> b`. */
  readonly what: string;
  /** The side that writes approval records: the gate agent, or the edge's sender. */
  readonly sender: string;
  readonly owner?: string;
  readonly at: Place;
  readonly was?: Place;
  readonly subject: FindingSubject;
}

/** The gates added and removed on kept agents and edges, agents first. */
export function gateChanges(pair: GraphPair): GateChange[] {
  const changes: GateChange[] = [];
  for (const { old, new: agent } of pair.keptAgents) {
    if ((old.gate === true) === (agent.gate === true)) continue;
    changes.push({
      added: agent.gate === true,
      what: `agent ${agent.id}`,
      sender: agent.id,
      owner: agent.id,
      at: agentPlace(pair.new, agent),
      was: agentPlace(pair.old, old),
      subject: { in: "new", agent: agent.id },
    });
  }
  for (const { old, new: edge } of pair.keptEdges) {
    if ((old.gate === true) === (edge.gate === true)) continue;
    changes.push({
      added: edge.gate === true,
      what: `${edge.kind} ${edge.from} -> ${edge.to}`,
      sender: edge.from,
      owner: edge.to,
      at: edge.gate === true ? settingPlace(pair.new, edge, "Gate") : edgePlace(pair.new, edge),
      was: old.gate === true ? settingPlace(pair.old, old, "Gate") : edgePlace(pair.old, old),
      subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
    });
  }
  return changes;
}
