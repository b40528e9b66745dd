/**
 * The handoff envelope 1.4 as TypeScript types: the same fields and constraints as the JSON
 * Schema (`seam compile` writes it as `<graph>.envelope.schema.json`), for services that build
 * and read envelopes. Constraints a type cannot say (formats, lengths, ranges) are in the doc
 * comments; `accept()` checks them.
 */

/** A role an agent plays in a graph. */
export type EnvelopeRole = "supervisor" | "worker" | "peer";

/** `from_agent` and `to_agent`. */
export interface AgentRef {
  readonly id: string;
  readonly role: EnvelopeRole;
  /** `MAJOR.MINOR.PATCH` (Semantic Versioning 2.0.0); checked against the agent's declared version. */
  readonly version?: string;
}

/** How far the task has come. */
export interface Hop {
  /** Handoffs so far: 0 at the first agent, +1 per handoff; a whole number up to 2^53 - 1. */
  readonly index: number;
  /** The graph's hop limit (the compiled module's `hopLimit`); at least 1. */
  readonly limit: number;
  /** The agents the task has visited, the first agent first: `index + 1` entries. */
  readonly path?: readonly string[];
  /** Envelope 1.4: the fan-out branch the handoff travels in, `FAN_OUT/AGENT`; absent outside one. */
  readonly branch?: string;
}

/** What the receiver is asked to achieve. */
export interface Goal {
  /** 1 to 2000 characters. */
  readonly statement: string;
  /** At least one, each non-empty. */
  readonly acceptance_criteria: readonly string[];
  readonly out_of_scope?: readonly string[];
}

/** A decision taken on the way, with why. */
export interface Decision {
  readonly id: string;
  readonly statement: string;
  readonly rationale: string;
  /** From 0 to 1. */
  readonly confidence: number;
  readonly reversible: boolean;
  readonly evidence?: readonly string[];
}

/** A reference to work product: a pointer, never the payload. */
export interface Artefact {
  /** An absolute URI (RFC 3986). */
  readonly ref: string;
  readonly media_type: string;
  readonly role: "required" | "supporting" | "superseded";
  /** `sha256:` and 64 lowercase hex digits. */
  readonly digest?: string;
  /** A whole number of bytes. */
  readonly byte_size?: number;
  /** At most 500 characters. */
  readonly summary?: string;
  readonly read_scope?: string;
}

/** Budget counters, each a whole number up to 2^53 - 1. */
export interface BudgetCounters {
  readonly tokens?: number;
  readonly wall_clock_ms?: number;
  readonly tool_calls?: number;
  readonly retries?: number;
  readonly cost_micros?: number;
}

/** What the task has spent, and may spend. */
export interface Budget {
  readonly consumed: BudgetCounters;
  readonly limit: BudgetCounters;
}

/** A question left open. */
export interface OpenQuestion {
  readonly question: string;
  /** A blocking question makes `accept()` refuse the envelope. */
  readonly blocking: boolean;
  readonly owner_hint?: string;
}

/** One step of the chain of custody. */
export interface ProvenanceEntry {
  readonly agent: string;
  readonly action: string;
  /** An RFC 3339 date-time with a time zone. */
  readonly at: string;
  readonly status: "verified" | "asserted" | "unverified";
  readonly note?: string;
}

/** The completion signal (new in 1.3). */
export type EnvelopeStatus = "ready" | "partial" | "blocked" | "waiting_review" | "failed";

/** The record an approval gate writes (new in 1.4). */
export interface Approval {
  /** Who approved: a person's or a reviewing service's id; non-empty. */
  readonly approver: string;
  /** An RFC 3339 date-time with a time zone. */
  readonly approved_at: string;
  /** The `handoff_id` (a UUID) of the handoff that waited for this approval. */
  readonly pending_handoff_id: string;
  readonly note?: string;
}

/** A handoff envelope, version 1.4 (a 1.3 or 1.2.0 envelope is one too). Closed: no other fields. */
export interface Envelope {
  /** `MAJOR.MINOR.PATCH`, such as `1.3.0`. */
  readonly envelope_version: string;
  /** A UUID (RFC 9562), new for every handoff: the idempotency key of the delivery. */
  readonly handoff_id: string;
  /** Non-empty; the same for every handoff of a task. */
  readonly task_id: string;
  readonly hop: Hop;
  readonly from_agent: AgentRef;
  readonly to_agent: AgentRef;
  readonly goal: Goal;
  readonly decisions?: readonly Decision[];
  readonly artefacts?: readonly Artefact[];
  readonly constraints?: readonly string[];
  readonly budget: Budget;
  readonly open_questions?: readonly OpenQuestion[];
  /** At least one entry. */
  readonly provenance: readonly ProvenanceEntry[];
  readonly status?: EnvelopeStatus;
  readonly allowed_next_step?: string;
  readonly safe_resume?: string;
  readonly blocked_on?: string;
  /** Only in 1.4: present where the handoff leaves an approval gate. */
  readonly approval?: Approval;
}
