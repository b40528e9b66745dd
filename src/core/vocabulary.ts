/**
 * The Seam vocabulary, stated once as data: roles, edge kinds with the roles each may join and
 * the envelope fields each requires by default, terminal outcomes, hop-limit actions and every
 * keyword. The scanner's token kinds, the parser's alternatives, the Chevrotain grammar
 * specification, binding's defaults, the rule tables and the pictures are derived from here;
 * the TextMate grammar and the fuzz generator are tested against it.
 *
 * Adding an edge kind: one entry in {@link EDGE_KIND_TABLE}; the compiler then points at every
 * exhaustive switch that must say what the kind means (`assertNever`).
 */

import { ENVELOPE_STATUSES } from "./envelope-schema.js";
import { AGENT_SETTINGS, EDGE_SETTINGS } from "./settings.js";

/** The roles an agent can play, in the order the grammar lists them. */
export const ROLES = ["supervisor", "worker", "peer"] as const;
/** The role of an agent. */
export type Role = (typeof ROLES)[number];

/** How a terminal ends a task: done, cannot be done, or handed to a human. */
export const OUTCOMES = ["complete", "failed", "escalate"] as const;
/** A terminal's outcome. */
export type Outcome = (typeof OUTCOMES)[number];
/** The outcome of a terminal written without one. */
export const DEFAULT_OUTCOME: Outcome = "complete";

/** What ingest does when `hop.index >= hop.limit`. */
export const HOP_LIMIT_ACTIONS = ["escalate", "failed"] as const;
/** An `on_hop_limit` action. */
export type HopLimitAction = (typeof HOP_LIMIT_ACTIONS)[number];
/** What ingest does at the hop limit when `on_hop_limit` is not written. */
export const DEFAULT_ON_HOP_LIMIT: HopLimitAction = "escalate";

/** What one edge kind means: who may use it and what its envelope must carry. */
export interface EdgeKindSpec {
  /** One line for hover, completion and the language reference. */
  readonly summary: string;
  /** Roles that may send this kind of handoff. */
  readonly from: readonly Role[];
  /** Roles that may receive it. */
  readonly to: readonly Role[];
  /**
   * Envelope field paths required when no `contract` block replaces them: only what the kind adds
   * to the envelope's own required fields (goal with its acceptance criteria, budget with its
   * limit, provenance are required of every envelope already). A required array must hold at
   * least one item; a field newer than the graph's envelope version is left out.
   */
  readonly defaultContract: readonly string[];
}

/**
 * Every edge kind, in the order the grammar lists them. `return` additionally needs a matching
 * `delegate` (the `role-mismatch` rule checks it).
 */
export const EDGE_KIND_TABLE = {
  delegate: {
    summary: "a supervisor hands work down and stays accountable for it",
    from: ["supervisor"],
    to: ["supervisor", "worker"],
    defaultContract: ["constraints"],
  },
  return: {
    summary: "results go back up to the supervisor that delegated the work",
    from: ["supervisor", "worker"],
    to: ["supervisor"],
    defaultContract: ["status", "artefacts"],
  },
  transfer: {
    summary: "accountability moves sideways to another worker or peer",
    from: ["worker", "peer"],
    to: ["worker", "peer"],
    defaultContract: ["decisions", "artefacts"],
  },
} as const satisfies Record<string, EdgeKindSpec>;

/** A kind of edge (handoff). */
export type EdgeKind = keyof typeof EDGE_KIND_TABLE;
/** The edge kinds in grammar order; an edge kind's code is its index here. */
export const EDGE_KINDS = Object.keys(EDGE_KIND_TABLE) as readonly EdgeKind[];

/** Required fields of each edge kind when no `contract` block replaces them. */
export const DEFAULT_CONTRACTS: Readonly<Record<EdgeKind, readonly string[]>> = Object.fromEntries(
  EDGE_KINDS.map((kind) => [kind, EDGE_KIND_TABLE[kind].defaultContract]),
) as unknown as Record<EdgeKind, readonly string[]>;

/** Keywords that begin a declaration or mark a part of one (the value keywords come from the lists above). */
export const STRUCTURE_KEYWORDS = [
  "seam", "graph", "envelope", "entry", "hop_limit", "auto", "on_hop_limit", "loop_signature",
  "agent", "contract", "observe",
] as const;

/** Keywords of an edge's guard (`when status is ready and confidence >= 0.8`, `otherwise`) and of a floor's `for`. */
export const GUARD_KEYWORDS = ["when", "otherwise", "is", "and", "for"] as const;

/** What a join waits for, besides a count: every input (`all`) or the first (`any`). */
export const JOIN_WAITS = ["all", "any"] as const;
/** A join's wait written as a word. */
export type JoinWait = (typeof JOIN_WAITS)[number];

/** Keywords of a join's line (`join 2 of a, b, c within 600 seconds otherwise escalate`), besides the waits. */
export const JOIN_KEYWORDS = ["of", "within", "seconds"] as const;

/**
 * What a guard may test, and how: `is` and a list of values (a finite domain: the statuses, or
 * the next steps the guards of one agent name), or a comparison with a number from 0 to 1.
 * `confidence` is the lowest `decisions[].confidence` of the envelope, so `confidence >= 0.8`
 * reads "every decision is at least 0.8 sure". `requires` is the field a guard on the subject
 * makes the edge require (a guard cannot be evaluated on an absent field): for `confidence`, at
 * least one decision (`decisions[]`), since no decisions have no lowest confidence (every
 * decision states its confidence already).
 */
export const GUARD_SUBJECTS = {
  status: { test: "is", values: ENVELOPE_STATUSES, requires: "status", pointer: "/status" },
  allowed_next_step: { test: "is", values: undefined, requires: "allowed_next_step", pointer: "/allowed_next_step" },
  confidence: { test: "compare", values: undefined, requires: "decisions[]", pointer: "/decisions" },
} as const satisfies Record<string, { test: "is" | "compare"; values: readonly string[] | undefined; requires: string; pointer: string }>;

/** A guard's subject. */
export type GuardSubject = keyof typeof GUARD_SUBJECTS;
/** The guard subjects in the order the reference lists them. */
export const GUARD_SUBJECT_NAMES = Object.keys(GUARD_SUBJECTS) as readonly GuardSubject[];

/** Every reserved word of the language, each once: structure keywords, settings, guard and join words, then roles, outcomes, actions, edge kinds. */
export const KEYWORDS: readonly string[] = [
  ...new Set<string>([
    ...STRUCTURE_KEYWORDS,
    ...AGENT_SETTINGS.map((s) => s.keyword),
    ...EDGE_SETTINGS.map((s) => s.keyword),
    ...GUARD_KEYWORDS,
    ...JOIN_WAITS,
    ...JOIN_KEYWORDS,
    ...ROLES,
    ...OUTCOMES,
    ...HOP_LIMIT_ACTIONS,
    ...EDGE_KINDS,
  ]),
];

/**
 * For exhaustive `switch` statements: a value of type `never` reaching here means a case is
 * missing (a compile error), and at run time a value from outside the vocabulary throws.
 *
 * @throws Error always; it names the value that no case handled.
 */
export function assertNever(value: never, what: string): never {
  throw new Error(`internal: unhandled ${what} '${String(value)}'`);
}
