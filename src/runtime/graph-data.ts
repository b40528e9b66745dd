/**
 * The graph as plain data: what an emitted validator module exports (`graph`, `agents`, `edges`)
 * and what {@link createAccept} is built from. Made from a checked graph by `src/emit`; nothing
 * here refers back to source text.
 */
import type { EdgeKind, GuardSubject, HopLimitAction, Outcome, Role } from "../core/vocabulary.js";

export type { EdgeKind, GuardSubject, HopLimitAction, Outcome, Role };

/** A graph's settings. */
export interface GraphInfo {
  readonly name: string;
  /** The envelope version the validators target; envelopes of another major are refused. */
  readonly envelope: { readonly major: number; readonly minor: number };
  /** Entry agents: every `hop.path` starts at one of them. */
  readonly entries: readonly string[];
  /** The value producers put in `hop.limit`: the authority `accept()` checks `hop.index` against. */
  readonly hopLimit: number;
  /** Where a task goes when `hop.index >= hop.limit`. */
  readonly onHopLimit: HopLimitAction;
  /** Field paths that `loopSignature` hashes. */
  readonly loopSignature: readonly string[];
}

/** A terminal action of an agent. */
export interface TerminalInfo {
  readonly id: string;
  readonly outcome: Outcome;
  readonly description?: string;
}

/** What a join agent waits for (docs/language.md, Fan-out and joins). */
export interface JoinInfo {
  /** The agents whose handoffs to the join agent it waits for, in source order. */
  readonly inputs: readonly string[];
  /** How many of the inputs' branches must arrive before the task goes on: all of them, 1 (`any`), or k. */
  readonly need: number;
  /** `within N seconds`, in seconds; absent when the join has no deadline. */
  readonly within?: number;
  /** What happens when the wait can no longer be met: `escalate`, or the join agent's terminal of that id. */
  readonly otherwise: string;
}

/** An agent of the graph. */
export interface AgentInfo {
  readonly id: string;
  readonly role: Role;
  readonly version?: string;
  readonly terminals: readonly TerminalInfo[];
  /** `join ...`: the agent waits for branches of a fan-out; absent when it is no join. */
  readonly join?: JoinInfo;
  /** `gate`: an approval gate; what leaves it carries an approval record and is not `waiting_review`. Absent when not. */
  readonly gate?: true;
}

/**
 * One test of a guard (docs/language.md, Guards): `status` or `allowed_next_step` is one of
 * `values`, or `confidence` (the lowest `decisions[].confidence`) compared with `value`, a
 * number from 0 to 1.
 */
export type GuardConditionInfo =
  | { readonly subject: Exclude<GuardSubject, "confidence">; readonly values: readonly string[] }
  | { readonly subject: "confidence"; readonly operator: "<" | "<=" | ">" | ">="; readonly value: number };

/**
 * An edge's guard: every condition holds (`when ... and ...`), or `otherwise` (no other guard of
 * the agent's router matches). The guarded edges out of one agent are tried in declaration order.
 */
export interface GuardInfo {
  readonly otherwise: boolean;
  readonly conditions: readonly GuardConditionInfo[];
}

/** `min_confidence`: the lowest decision confidence an edge takes (0 to 1), for every decision or the ids named. */
export interface FloorInfo {
  readonly value: number;
  /** The decision ids it applies to; empty: every decision. */
  readonly decisions: readonly string[];
}

/** An edge of the graph. */
export interface EdgeInfo {
  readonly kind: EdgeKind;
  readonly from: string;
  readonly to: string;
  /** Validate, but accept with warnings instead of rejecting. */
  readonly observe: boolean;
  /** How often a task may take this edge; absent when unbounded. */
  readonly maxRounds?: number;
  /**
   * How many refusals of the producer over this edge, while the task awaits one hop, go back to
   * it for repair before the next escalates (`repairs N`); absent: 1.
   */
  readonly repairs?: number;
  /** `when ...` or `otherwise`; absent for an edge the producer may take in any state. */
  readonly guard?: GuardInfo;
  /** `min_confidence`; absent when the edge has no floor. */
  readonly minConfidence?: FloorInfo;
  /** `gate` on the edge itself: an approval gate. Absent when not (the agent it leaves may still be one). */
  readonly gate?: true;
  /** The required field paths of the edge's contract, sorted. */
  readonly require: readonly string[];
  /**
   * `fan_out NAME` on a delegate edge: the edge is the branch `NAME/to` of that fan-out of its
   * supervisor, and every envelope over it carries `hop.branch` so; absent when it is no branch.
   */
  readonly fanOut?: string;
  /** Index of the edge's contract validator; edges with the same `require` share one. */
  readonly contract: number;
}
