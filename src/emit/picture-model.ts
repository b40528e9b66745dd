/**
 * What a picture of a handoff graph shows, independent of the drawing language: the nodes
 * (a start marker, the agents, one end node per terminal), the edges with their labels, and
 * which parts the analysis found faulty. The Mermaid and DOT writers only translate this, so
 * both pictures always say the same thing.
 *
 * Marking ("cycles and unreachable agents marked"): every edge of a cycle
 * with no `max_rounds` (`unbounded-cycle`) and every reachable agent that cannot reach a
 * terminal (`no-terminal-path`) is drawn in {@link FAULT_COLOR}; agents no entry reaches
 * (`unreachable-agent`) are grey. Marked nodes also say so in their label, so the picture reads
 * without colour.
 */
import type { CheckedGraph, HopLimitInfo } from "../analysis/model.js";
import type { EdgeKind, Outcome, Role } from "../parser/ast.js";
import { guardText } from "../parser/print.js";

/** Colour of faults (unbounded cycles, agents with no terminal path). */
export const FAULT_COLOR = "#d32f2f";
/** Colour of unreachable agents. */
export const UNREACHABLE_COLOR = "#9e9e9e";

/** How a node is marked. */
export type NodeState = "normal" | "no-terminal-path" | "unreachable";

/** One node of a picture. */
export type PictureNode =
  | { readonly kind: "start"; readonly key: string; readonly label: readonly string[] }
  | {
      readonly kind: "agent";
      readonly key: string;
      readonly role: Role;
      readonly state: NodeState;
      /** An approval gate (`gate`): drawn as its own shape, a hexagon. */
      readonly gate: boolean;
      /** Lines: the agent id, the role (and version), `approval gate`, `effect: ...`, then the fault, if any. */
      readonly label: readonly string[];
    }
  | {
      readonly kind: "terminal";
      readonly key: string;
      readonly outcome: Outcome;
      /** Greyed with its unreachable agent. */
      readonly state: NodeState;
      /** Lines: the outcome, then the terminal id. */
      readonly label: readonly string[];
    };

/** One arrow of a picture. */
export interface PictureEdge {
  /** `entry`: start marker -> entry agent; `terminal`: agent -> its end node; else a handoff. */
  readonly kind: "entry" | "terminal" | EdgeKind;
  readonly from: string;
  readonly to: string;
  /** Lines: the edge kind, its guard (`when status is ready`), `max_rounds N`, `min_confidence 0.8`, `gate`, `observe`; empty for entry and terminal arrows. */
  readonly label: readonly string[];
  /** Drawn dashed: an `observe` edge (validated, but only warns). */
  readonly dashed: boolean;
  /** On a cycle with no bound: drawn in {@link FAULT_COLOR}. */
  readonly fault: boolean;
  /** Leaves an unreachable agent: drawn grey. */
  readonly unreachable: boolean;
}

/** A picture of one graph. Node keys are unique; the order of nodes and edges is stable. */
export interface Picture {
  /** The graph name and its hop limit, e.g. `refund_desk: hop limit 8 (declared; longest walk 5)`. */
  readonly title: string;
  readonly nodes: readonly PictureNode[];
  readonly edges: readonly PictureEdge[];
}

/**
 * Builds the picture of a checked graph. Node keys are readable and cannot collide: an agent's
 * key is its id, a terminal's is `agent/terminal` and the start marker's is `/start` (ids hold
 * no `/`). Nodes come as start marker, then agents in declaration order each followed by its
 * terminals; edges as entry arrows, handoffs in declaration order, then terminal arrows.
 */
export function buildPicture(graph: CheckedGraph): Picture {
  const nodes: PictureNode[] = [];
  const edges: PictureEdge[] = [];
  const unreachable = new Set(graph.agents.filter((a) => !a.reachable).map((a) => a.id));
  const startKey = "/start";
  if (graph.entries.length > 0) nodes.push({ kind: "start", key: startKey, label: ["start"] });
  for (const agent of graph.agents) {
    const state: NodeState = !agent.reachable ? "unreachable" : agent.canTerminate ? "normal" : "no-terminal-path";
    const role = agent.version === undefined ? agent.role : `${agent.role} ${agent.version}`;
    const note = state === "unreachable" ? ["unreachable"] : state === "no-terminal-path" ? ["no terminal path"] : [];
    const marks = [...(agent.gate ? ["approval gate"] : []), ...(agent.effect === undefined ? [] : [`effect: ${agent.effect}`])];
    nodes.push({ kind: "agent", key: agent.id, role: agent.role, state, gate: agent.gate === true, label: [agent.id, role, ...marks, ...note] });
    for (const terminal of agent.terminals) {
      nodes.push({
        kind: "terminal",
        key: `${agent.id}/${terminal.id}`,
        outcome: terminal.outcome,
        state: state === "unreachable" ? "unreachable" : "normal",
        label: [terminal.outcome, terminal.id],
      });
    }
  }
  const plain = { label: [], dashed: false, fault: false } as const;
  for (const entry of graph.entries) {
    edges.push({ kind: "entry", from: startKey, to: entry, ...plain, unreachable: false });
  }
  for (const edge of graph.edges) {
    edges.push({
      kind: edge.kind,
      from: edge.from,
      to: edge.to,
      label: [
        edge.kind,
        ...(edge.decl.guard === undefined ? [] : [guardText(edge.decl.guard)]),
        ...(edge.maxRounds === undefined ? [] : [`max_rounds ${edge.maxRounds}`]),
        ...(edge.minConfidence === undefined ? [] : [`min_confidence ${edge.minConfidence.value}`]),
        ...(edge.gate ? ["gate"] : []),
        ...(edge.observe ? ["observe"] : []),
      ],
      dashed: edge.observe,
      fault: edge.inUnboundedCycle,
      unreachable: unreachable.has(edge.from),
    });
  }
  for (const agent of graph.agents) {
    for (const terminal of agent.terminals) {
      edges.push({ kind: "terminal", from: agent.id, to: `${agent.id}/${terminal.id}`, ...plain, unreachable: unreachable.has(agent.id) });
    }
  }
  return { title: `${graph.name}: ${describeHopLimit(graph.hopLimit, graph.unboundedCycles.length > 0)}`, nodes, edges };
}

/** The hop limit as the picture's title states it. */
function describeHopLimit(hop: HopLimitInfo, hasUnboundedCycle: boolean): string {
  const walk =
    hop.longestWalk === undefined ? undefined : `longest walk ${hop.exact ? "" : "at most "}${hop.longestWalk}`;
  if (hop.declared !== undefined) {
    return `hop limit ${hop.declared} (declared${walk === undefined ? "" : `; ${walk}`})`;
  }
  if (hop.value !== undefined) return `hop limit ${hop.value} (auto${walk === undefined ? "" : `: ${walk}`})`;
  return hasUnboundedCycle ? "hop limit unbounded (a cycle has no max_rounds)" : "hop limit unknown (no terminal reachable)";
}
