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

/** An agent of the graph. */
export interface AgentInfo {
  readonly id: string;
  readonly role: Role;
  readonly version?: string;
  readonly terminals: readonly TerminalInfo[];
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
  /** Index of the edge's contract validator; edges with the same `require` share one. */
  readonly contract: number;
}
