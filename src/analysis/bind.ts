/**
 * Name resolution: one `graph` block of the AST -> the declared agents, edges, entries and
 * settings, with names resolved and defaults applied (DESIGN.md sections 1 and 3). Binding
 * reports nothing: where a name is declared twice the first declaration wins, a setting written
 * twice takes its first value, and an edge naming an unknown agent is left out; the rules
 * (`duplicate-*`, `unknown-agent`...) read the AST and report those.
 */
import type {
  AgentDecl,
  EdgeDecl,
  EdgeKind,
  EnvelopeDecl,
  GraphDecl,
  HopLimitAction,
  HopLimitDecl,
  Outcome,
  Role,
} from "../parser/ast.js";
import { ENVELOPE_VERSION } from "../core/envelope-schema.js";
import type { CheckedTerminal } from "./model.js";

/** Required fields of each edge kind when no `contract` block replaces them (DESIGN.md section 1). */
export const DEFAULT_CONTRACTS: Readonly<Record<EdgeKind, readonly string[]>> = {
  delegate: ["goal.acceptance_criteria", "budget.limit", "constraints"],
  return: ["status", "artefacts", "provenance"],
  transfer: ["decisions", "decisions[].rationale", "provenance", "artefacts"],
};

/** Fields hashed by `loopSignature` when no `loop_signature` line is written (DESIGN.md section 4). */
export const DEFAULT_LOOP_SIGNATURE: readonly string[] = ["goal.statement", "decisions[].statement"];

/** What ingest does at the hop limit when `on_hop_limit` is not written. */
export const DEFAULT_ON_HOP_LIMIT: HopLimitAction = "escalate";

const KIND_INDEX: Readonly<Record<EdgeKind, number>> = { delegate: 0, return: 1, transfer: 2 };

/** An agent after binding (the first declaration of its id). */
export interface BoundAgent {
  readonly id: string;
  readonly role: Role;
  /** The first `version` line's value. */
  readonly version?: string;
  /** Terminals by first declaration of each id, in source order. */
  readonly terminals: readonly CheckedTerminal[];
  readonly decl: AgentDecl;
}

/** An edge whose endpoints are both declared, first declaration of each (kind, from, to). */
export interface BoundEdge {
  readonly index: number;
  readonly kind: EdgeKind;
  readonly from: string;
  readonly to: string;
  /** Agent indices of the endpoints. */
  readonly fromIndex: number;
  readonly toIndex: number;
  readonly observe: boolean;
  /** The first `max_rounds` value; absent when unbounded. */
  readonly maxRounds?: number;
  /** Effective required paths: the kind's contract plus the edge's own, deduplicated and sorted. */
  readonly require: readonly string[];
  readonly decl: EdgeDecl;
}

/** One graph after name resolution. */
export interface BoundGraph {
  readonly name: string;
  readonly decl: GraphDecl;
  readonly agents: readonly BoundAgent[];
  /** Agent id -> position in `agents`. */
  readonly agentIndex: ReadonlyMap<string, number>;
  readonly edges: readonly BoundEdge[];
  /** Known entry agents in source order, deduplicated, as agent indices. */
  readonly entries: readonly number[];
  /** Whether any `entry` line was written (even one naming only unknown agents). */
  readonly hasEntryLine: boolean;
  /**
   * Declared agents with an edge to an undeclared one (`unknown-agent` reports it). What lies
   * behind such an edge is unknown, so trap analysis gives these agents the benefit of the doubt
   * instead of piling a second error onto a typo.
   */
  readonly danglingFrom: readonly number[];
  readonly envelope: { readonly major: number; readonly minor: number };
  /** The first `hop_limit` line, if any. */
  readonly hopLimit?: HopLimitDecl;
  readonly onHopLimit: HopLimitAction;
  readonly loopSignature: readonly string[];
  readonly contracts: Readonly<Record<EdgeKind, readonly string[]>>;
}

/** Resolves the names of one graph block. Pure; never throws. */
export function bindGraph(decl: GraphDecl): BoundGraph {
  const agents: BoundAgent[] = [];
  const agentIndex = new Map<string, number>();
  let envelope: EnvelopeDecl | undefined;
  let hopLimit: HopLimitDecl | undefined;
  let onHopLimit: HopLimitAction | undefined;
  let loopSignature: readonly string[] | undefined;
  const contracts: Partial<Record<EdgeKind, readonly string[]>> = {};
  const entryNames: string[] = [];
  let hasEntryLine = false;
  const edgeDecls: EdgeDecl[] = [];

  for (const item of decl.items) {
    switch (item.kind) {
      case "Agent":
        if (!agentIndex.has(item.name.name)) {
          agentIndex.set(item.name.name, agents.length);
          agents.push(bindAgent(item));
        }
        break;
      case "Envelope":
        envelope ??= item;
        break;
      case "HopLimit":
        hopLimit ??= item;
        break;
      case "OnHopLimit":
        onHopLimit ??= item.action.value;
        break;
      case "LoopSignature":
        loopSignature ??= item.paths.map((p) => p.text);
        break;
      case "Contract":
        contracts[item.edgeKind.value] ??= item.requires.flatMap((r) => r.paths.map((p) => p.text));
        break;
      case "Entry":
        hasEntryLine = true;
        for (const agent of item.agents) entryNames.push(agent.name);
        break;
      case "Edge":
        edgeDecls.push(item);
        break;
    }
  }

  const effectiveContracts: Record<EdgeKind, readonly string[]> = {
    delegate: contracts.delegate ?? DEFAULT_CONTRACTS.delegate,
    return: contracts.return ?? DEFAULT_CONTRACTS.return,
    transfer: contracts.transfer ?? DEFAULT_CONTRACTS.transfer,
  };

  const sortedContracts: Record<EdgeKind, readonly string[]> = {
    delegate: [...new Set(effectiveContracts.delegate)].sort(),
    return: [...new Set(effectiveContracts.return)].sort(),
    transfer: [...new Set(effectiveContracts.transfer)].sort(),
  };
  const edges: BoundEdge[] = [];
  const seenEdges = new Set<number>();
  const danglingFrom: number[] = [];
  for (const edge of edgeDecls) {
    const fromIndex = agentIndex.get(edge.from.name);
    const toIndex = agentIndex.get(edge.to.name);
    if (fromIndex !== undefined && toIndex === undefined) danglingFrom.push(fromIndex);
    if (fromIndex === undefined || toIndex === undefined) continue;
    // A numeric key (kind, from, to) is exact for any graph below 2^53 / 3 agent pairs.
    const key = (KIND_INDEX[edge.edgeKind.value] * agents.length + fromIndex) * agents.length + toIndex;
    if (seenEdges.has(key)) continue;
    seenEdges.add(key);
    let maxRounds: number | undefined;
    const own: string[] = [];
    for (const item of edge.items) {
      if (item.kind === "MaxRounds") maxRounds ??= item.value.value;
      else for (const path of item.paths) own.push(path.text);
    }
    // Edges without their own require lines share one sorted array per kind.
    const require = own.length === 0 ? sortedContracts[edge.edgeKind.value] : [...new Set([...effectiveContracts[edge.edgeKind.value], ...own])].sort();
    edges.push({
      index: edges.length,
      kind: edge.edgeKind.value,
      from: edge.from.name,
      to: edge.to.name,
      fromIndex,
      toIndex,
      observe: edge.observe !== undefined,
      ...(maxRounds === undefined ? {} : { maxRounds }),
      require,
      decl: edge,
    });
  }

  const entries = [...new Set(entryNames)].flatMap((name) => {
    const index = agentIndex.get(name);
    return index === undefined ? [] : [index];
  });

  return {
    name: decl.name.name,
    decl,
    agents,
    agentIndex,
    edges,
    entries,
    hasEntryLine,
    danglingFrom,
    envelope: envelope
      ? { major: envelope.version.major, minor: envelope.version.minor }
      : { major: ENVELOPE_VERSION.major, minor: ENVELOPE_VERSION.minor },
    ...(hopLimit ? { hopLimit } : {}),
    onHopLimit: onHopLimit ?? DEFAULT_ON_HOP_LIMIT,
    loopSignature: loopSignature ?? DEFAULT_LOOP_SIGNATURE,
    contracts: effectiveContracts,
  };
}

function bindAgent(decl: AgentDecl): BoundAgent {
  let version: string | undefined;
  const terminals: CheckedTerminal[] = [];
  const seen = new Set<string>();
  for (const item of decl.items) {
    if (item.kind === "AgentVersion") {
      version ??= item.value.value;
    } else if (!seen.has(item.name.name)) {
      seen.add(item.name.name);
      const outcome: Outcome = item.outcome?.value ?? "complete";
      terminals.push({
        id: item.name.name,
        outcome,
        ...(item.description ? { description: item.description.value } : {}),
      });
    }
  }
  return { id: decl.name.name, role: decl.role.value, ...(version === undefined ? {} : { version }), terminals, decl };
}
