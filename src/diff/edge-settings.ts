/**
 * The settings of the edges and agents kept between two graph versions, read as `seam diff`
 * compares them: repairs with its default, confidence floors (none reads as 0), approval gates,
 * and the envelope states each guarded edge takes.
 */
import type { CheckedEdge, CheckedGraph, CheckedGuard } from "../analysis/model.js";
import { describeState, domainOf, matches, statesOf, type Domain, type GuardState } from "../analysis/guards.js";
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

/** One kept edge whose guard now takes fewer (`narrowed`) or more (`widened`) envelope states. */
export interface GuardChange {
  readonly edge: CheckedEdge;
  readonly old: CheckedEdge;
  /** A state the edge took before and no longer does, in words. */
  readonly narrowed?: string;
  /** A state the edge takes now and did not before, in words. */
  readonly widened?: string;
}

/**
 * The kept edges whose set of routed states changed, with a witness each way. The states an
 * edge takes are those its router (the guarded edges out of its agent, tried in order, then
 * `otherwise`) routes to it; an edge without a guard takes every state. Both versions are
 * enumerated over one domain, built from the guards of both.
 */
export function guardChanges(pair: GraphPair): GuardChange[] {
  const changes: GuardChange[] = [];
  for (const { old, new: edge } of pair.keptEdges) {
    if (old.guard === undefined && edge.guard === undefined) continue;
    const oldRouter = routerOf(pair.old.graph, old);
    const newRouter = routerOf(pair.new.graph, edge);
    const domain = domainOf([...oldRouter, ...newRouter].flatMap((e) => (e.guard === undefined ? [] : [e.guard])));
    let narrowed: string | undefined;
    let widened: string | undefined;
    for (const state of statesOf(domain)) {
      const before = takes(oldRouter, old, state, domain);
      const after = takes(newRouter, edge, state, domain);
      if (before && !after) narrowed ??= describeState(state, domain);
      if (after && !before) widened ??= describeState(state, domain);
    }
    if (narrowed !== undefined || widened !== undefined) {
      changes.push({ edge, old, ...(narrowed === undefined ? {} : { narrowed }), ...(widened === undefined ? {} : { widened }) });
    }
  }
  return changes;
}

/** The guarded edges out of `edge`'s agent in `graph`, in order. */
function routerOf(graph: CheckedGraph, edge: CheckedEdge): CheckedEdge[] {
  return graph.edges.filter((e) => e.from === edge.from && e.guard !== undefined);
}

/** True when the router routes `state` to `edge` (an edge without a guard takes every state). */
function takes(router: readonly CheckedEdge[], edge: CheckedEdge, state: GuardState, domain: Domain): boolean {
  if (edge.guard === undefined) return true;
  const first = router.find((e) => !(e.guard as CheckedGuard).otherwise && matches(e.guard as CheckedGuard, state, domain));
  if (first !== undefined) return first.index === edge.index;
  return router.find((e) => (e.guard as CheckedGuard).otherwise)?.index === edge.index;
}
