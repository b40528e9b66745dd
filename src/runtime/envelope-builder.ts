/**
 * Builders for the envelopes a producer sends, so that the correct envelope is the easy one to
 * write: the header (ids, hop index, limit and path, roles and declared versions, the envelope
 * version, the provenance time) comes from the graph and the envelope received, never from hand.
 */
import { randomUUID } from "node:crypto";
import { quoteUntrusted } from "../core/untrusted-text.js";
import type {
  AgentRef,
  Artefact,
  Budget,
  Decision,
  Envelope,
  EnvelopeStatus,
  Goal,
  OpenQuestion,
  ProvenanceEntry,
} from "./envelope.js";
import type { AgentInfo, EdgeInfo, GraphInfo } from "./graph-data.js";

/** The content of a handoff: what the producer decides; everything else is filled in. */
export interface HandoffContent<Me extends string = string, To extends string = string> {
  /** The sending agent. For {@link EnvelopeBuilder.next}, the receiver of the envelope handed on. */
  readonly me: Me;
  /** The receiving agent: the graph must have an edge `me -> to`. */
  readonly to: To;
  /** What this agent did, for the provenance entry it appends. */
  readonly action: string;
  /** The provenance entry's status (default `asserted`). */
  readonly provenanceStatus?: ProvenanceEntry["status"];
  /** A note for the provenance entry. */
  readonly note?: string;
  readonly decisions?: readonly Decision[];
  readonly artefacts?: readonly Artefact[];
  readonly constraints?: readonly string[];
  readonly open_questions?: readonly OpenQuestion[];
  readonly status?: EnvelopeStatus;
  readonly allowed_next_step?: string;
  readonly safe_resume?: string;
  readonly blocked_on?: string;
  /** The clock for the provenance time, in ms since the Unix epoch (default `Date.now`). */
  readonly now?: () => number;
  /** The new `handoff_id` (default: a random UUID, RFC 9562 version 4). */
  readonly handoffId?: string;
}

/** A new task: the content plus what only the first handoff states. */
export interface FirstHandoff<Me extends string = string, To extends string = string> extends HandoffContent<Me, To> {
  readonly taskId: string;
  readonly goal: Goal;
  readonly budget: Budget;
}

/** A handoff of a task received: goal and budget default to the received ones, and carried fields (decisions, artefacts, constraints, open questions) too. */
export interface NextHandoff<Me extends string = string, To extends string = string> extends HandoffContent<Me, To> {
  readonly goal?: Goal;
  readonly budget?: Budget;
}

/** The builders of one graph. Each returns a new envelope that shares no object with its inputs (a deep copy). */
export interface EnvelopeBuilder {
  /**
   * The first envelope of a new task, from an entry agent: hop 1, path `[me, to]`.
   *
   * @throws TypeError when `me` is not an entry, or the graph has no edge `me -> to`
   */
  first(handoff: FirstHandoff): Envelope;
  /**
   * The envelope that hands a received task on: the same `task_id`, a fresh `handoff_id`,
   * `hop.index + 1`, the graph's `hop.limit`, the path extended by `to`, roles and declared
   * versions from the graph, the received provenance plus this agent's entry (a provenance that
   *   is not a list, which an `observe` edge accepts as a warning, restarts with this entry).
   *
   * @throws TypeError when `received` was not addressed to `me` or has no `hop.path`, or the
   *   graph has no edge `me -> to`; RangeError when the task is at its hop limit (escalate or
   *   fail it, as the graph's `on_hop_limit` says, instead of handing it on)
   */
  next(received: Envelope, handoff: NextHandoff): Envelope;
}

/** What {@link createEnvelopeBuilder} needs: the graph as data (a compiled module's exports). */
export interface EnvelopeBuilderSpec {
  readonly graph: GraphInfo;
  readonly agents: readonly AgentInfo[];
  readonly edges: readonly EdgeInfo[];
}

/**
 * Creates the envelope builders of one graph.
 *
 * @param spec - the graph as data
 */
export function createEnvelopeBuilder(spec: EnvelopeBuilderSpec): EnvelopeBuilder {
  const { graph } = spec;
  const agents = new Map(spec.agents.map((agent) => [agent.id, agent]));
  const edges = new Set(spec.edges.map((edge) => `${edge.from}\u0000${edge.to}`));
  const entries = new Set(graph.entries);
  const envelopeVersion = `${graph.envelope.major}.${graph.envelope.minor}.0`;

  function ref(id: string): AgentRef {
    const agent = agents.get(id);
    if (agent === undefined) throw new TypeError(`graph ${graph.name} has no agent ${quoteUntrusted(id)}`);
    return agent.version === undefined ? { id, role: agent.role } : { id, role: agent.role, version: agent.version };
  }

  function checkEdge(me: string, to: string): void {
    ref(me);
    ref(to);
    if (!edges.has(`${me}\u0000${to}`)) throw new TypeError(`graph ${graph.name} has no edge ${me} -> ${to}`);
  }

  function provenanceEntry(handoff: HandoffContent): ProvenanceEntry {
    const at = new Date((handoff.now ?? Date.now)()).toISOString();
    const entry: ProvenanceEntry = { agent: handoff.me, action: handoff.action, at, status: handoff.provenanceStatus ?? "asserted" };
    return handoff.note === undefined ? entry : { ...entry, note: handoff.note };
  }

  /** The optional fields, in schema order, each present only when given. */
  function carried(handoff: HandoffContent, received: Envelope | undefined): Partial<Envelope> {
    const pick = <K extends keyof HandoffContent & keyof Envelope>(key: K): Partial<Envelope> => {
      const value = handoff[key] ?? (received?.[key] as HandoffContent[K] | undefined);
      return value === undefined ? {} : { [key]: value };
    };
    return {
      ...pick("decisions"),
      ...pick("artefacts"),
      ...pick("constraints"),
      ...pick("open_questions"),
    };
  }

  function completion(handoff: HandoffContent): Partial<Envelope> {
    const out: { -readonly [K in keyof Envelope]?: Envelope[K] } = {};
    if (handoff.status !== undefined) out.status = handoff.status;
    if (handoff.allowed_next_step !== undefined) out.allowed_next_step = handoff.allowed_next_step;
    if (handoff.safe_resume !== undefined) out.safe_resume = handoff.safe_resume;
    if (handoff.blocked_on !== undefined) out.blocked_on = handoff.blocked_on;
    return out;
  }

  return {
    first(handoff) {
      if (!entries.has(handoff.me)) throw new TypeError(`${quoteUntrusted(handoff.me)} is not an entry of graph ${graph.name}: a task starts at ${graph.entries.join(", ")}`);
      checkEdge(handoff.me, handoff.to);
      if (graph.hopLimit < 1) throw new RangeError(`graph ${graph.name} allows no handoff`);
      const { decisions, artefacts, constraints, open_questions } = carried(handoff, undefined);
      // A copy: editing the new envelope (bumping its budget) never edits the caller's values.
      return structuredClone({
        envelope_version: envelopeVersion,
        handoff_id: handoff.handoffId ?? randomUUID(),
        task_id: handoff.taskId,
        hop: { index: 1, limit: graph.hopLimit, path: [handoff.me, handoff.to] },
        from_agent: ref(handoff.me),
        to_agent: ref(handoff.to),
        goal: handoff.goal,
        ...(decisions === undefined ? {} : { decisions }),
        ...(artefacts === undefined ? {} : { artefacts }),
        ...(constraints === undefined ? {} : { constraints }),
        budget: handoff.budget,
        ...(open_questions === undefined ? {} : { open_questions }),
        provenance: [provenanceEntry(handoff)],
        ...completion(handoff),
      });
    },
    next(received, handoff) {
      if (received.to_agent.id !== handoff.me) {
        throw new TypeError(`the envelope received was addressed to ${quoteUntrusted(received.to_agent.id)}, not to ${quoteUntrusted(handoff.me)}`);
      }
      const path = received.hop.path;
      if (path === undefined) throw new TypeError("the envelope received has no hop.path to extend");
      checkEdge(handoff.me, handoff.to);
      const index = received.hop.index + 1;
      if (index >= graph.hopLimit) {
        throw new RangeError(
          `hop ${index} would reach the hop limit of graph ${graph.name}, ${graph.hopLimit}: ${graph.onHopLimit === "escalate" ? "escalate the task to a human" : "fail the task"} instead of handing it on`,
        );
      }
      const { decisions, artefacts, constraints, open_questions } = carried(handoff, received);
      // A copy: editing the new envelope never edits the envelope received, nor the caller's values.
      return structuredClone({
        envelope_version: envelopeVersion,
        handoff_id: handoff.handoffId ?? randomUUID(),
        task_id: received.task_id,
        hop: { index, limit: graph.hopLimit, path: [...path, handoff.to] },
        from_agent: ref(handoff.me),
        to_agent: ref(handoff.to),
        goal: handoff.goal ?? received.goal,
        ...(decisions === undefined ? {} : { decisions }),
        ...(artefacts === undefined ? {} : { artefacts }),
        ...(constraints === undefined ? {} : { constraints }),
        budget: handoff.budget ?? received.budget,
        ...(open_questions === undefined ? {} : { open_questions }),
        // On an observe edge a malformed provenance may have been accepted (as a warning): it restarts here.
        provenance: [...(Array.isArray(received.provenance) ? received.provenance : []), provenanceEntry(handoff)],
        ...completion(handoff),
      });
    },
  };
}
