/**
 * The graph as plain data: what an emitted validator module exports (`graph`, `agents`, `edges`)
 * and what {@link createAccept} is built from. Made from a checked graph by `src/emit`; nothing
 * here refers back to source text.
 */
import type { EdgeKind, HopLimitAction, Outcome, Role } from "../core/vocabulary.js";

export type { EdgeKind, HopLimitAction, Outcome, Role };

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
