/**
 * The checked model: what analysis hands to the emitters and the CLI. It is built from the AST
 * by name resolution and the graph algorithms, alongside the diagnostics. Emission only ever runs
 * on a model whose diagnostics hold no error. It holds no source range of its own: positions are
 * its `decl` nodes' (a carried check moves only the tree, `src/program/moved-check.ts`, and a
 * test walks the model of every example for a stray range).
 */
import type { Diagnostic } from "../core/diagnostic.js";
import type { SourceFile } from "../core/source-file.js";
import type {
  AgentDecl,
  EdgeDecl,
  EdgeKind,
  GraphDecl,
  HopLimitAction,
  JoinDecl,
  Outcome,
  Role,
  SeamFile,
} from "../parser/ast.js";
import type { HopApproximation } from "./hop-limits.js";
import type { ComparisonOperator } from "../parser/ast.js";
import type { GuardSubject } from "../core/vocabulary.js";

/**
 * One test of a guard: a subject with the values it may take (`status is ready, partial`), or
 * `confidence` (the lowest decision confidence) compared with a number from 0 to 1.
 */
export type CheckedCondition =
  | { readonly subject: Exclude<GuardSubject, "confidence">; readonly values: readonly string[] }
  | { readonly subject: "confidence"; readonly operator: ComparisonOperator; readonly value: number };

/**
 * The guard of an edge: every condition must hold (`and`); `otherwise` matches what no other
 * guarded edge out of the same agent does. Guarded edges out of one agent form its router, tried
 * in source order: the first whose guard matches is the route.
 */
export interface CheckedGuard {
  readonly otherwise: boolean;
  readonly conditions: readonly CheckedCondition[];
}

/** `min_confidence`: the lowest decision confidence an edge accepts. */
export interface CheckedFloor {
  /** From 0 to 1. */
  readonly value: number;
  /** The decision ids it applies to; empty: every decision. */
  readonly decisions: readonly string[];
}

/** A terminal action of an agent. */
export interface CheckedTerminal {
  readonly id: string;
  readonly outcome: Outcome;
  readonly description?: string;
}

/**
 * `join`: the agent waits for handoffs from `inputs` before the task goes on from it
 * (docs/language.md, Fan-out and joins).
 */
export interface CheckedJoin {
  /** `all`, `any`, or how many of the inputs must arrive (k of n). */
  readonly wait: "all" | "any" | number;
  /** The agents whose handoffs to the join agent it waits for, in source order, each once. */
  readonly inputs: readonly string[];
  /** `within N seconds`: how long it waits, in seconds; absent when no deadline is written. */
  readonly within?: number;
  /** What happens when the wait can no longer be met or the deadline passes: escalate to a person, or end at a terminal of the join agent. */
  readonly otherwise: "escalate" | { readonly terminal: string };
  readonly decl: JoinDecl;
}

/** How many arrivals a join needs: all of its inputs, one, or k. */
export function joinNeeds(join: Pick<CheckedJoin, "wait" | "inputs">): number {
  return join.wait === "all" ? join.inputs.length : join.wait === "any" ? 1 : join.wait;
}

/** A declared agent (the first declaration, where an id is declared twice). */
export interface CheckedAgent {
  readonly id: string;
  readonly role: Role;
  readonly version?: string;
  readonly terminals: readonly CheckedTerminal[];
  /** `gate`: an approval gate (envelopes leaving it carry an approval record); absent when not. */
  readonly gate?: true;
  /** `effect "..."`: what the agent does outside the graph; absent when it declares none. */
  readonly effect?: string;
  /** `join ...`: the agent is a join; absent when not. */
  readonly join?: CheckedJoin;
  /** Reachability: some entry reaches this agent (entries reach themselves). */
  readonly reachable: boolean;
  /** Some agent with a terminal is reachable from this one (itself included). */
  readonly canTerminate: boolean;
  readonly decl: AgentDecl;
}

/** An edge whose endpoints are both declared agents (edges naming unknown agents are left out). */
export interface CheckedEdge {
  /** Position in `CheckedGraph.edges`; stable for the same input. */
  readonly index: number;
  readonly kind: EdgeKind;
  readonly from: string;
  readonly to: string;
  /** `observe`: validators accept with warnings instead of rejecting. */
  readonly observe: boolean;
  /** How often a task may take this edge; absent when unbounded. */
  readonly maxRounds?: number;
  /** `repairs N`: refusals of the producer, while the task awaits one hop, that go back for repair before the next escalates; absent: the default, 1. */
  readonly repairs?: number;
  /** `when ...` / `otherwise`; absent for an edge the producer may take in any state. */
  readonly guard?: CheckedGuard;
  /** `min_confidence`; absent when the edge has no floor. */
  readonly minConfidence?: CheckedFloor;
  /** `gate` on the edge: an approval gate; absent when not. */
  readonly gate?: true;
  /** `fan_out NAME`: the delegation is a branch of that fan-out of its supervisor; absent when not. */
  readonly fanOut?: string;
  /**
   * The effective required field paths (the kind's contract, replaced by a `contract` block,
   * plus the edge's own `require` lines), deduplicated and sorted.
   */
  readonly require: readonly string[];
  /** The edge lies on a cycle with no bounded edge (unbounded-cycle). */
  readonly inUnboundedCycle: boolean;
  readonly decl: EdgeDecl;
}

/**
 * The graph's hop limit (docs/language.md, Settings). `hop.index` counts the handoffs a task has taken,
 * this one included; ingest rejects `hop.index >= hop.limit`.
 */
export interface HopLimitInfo {
  /** The value producers put in `hop.limit`: the declared limit, or `H + 1` under `auto`.
   * Absent when it cannot be computed (an unbounded cycle under `auto`, or no terminal reachable). */
  readonly value?: number;
  /** The declared integer, when `hop_limit` is not `auto`. */
  readonly declared?: number;
  /** H: the most handoffs on any walk from an entry to a terminal that respects every edge's
   * `max_rounds`. Absent when unbounded or when no entry reaches a terminal. */
  readonly longestWalk?: number;
  /** True when `longestWalk` is exact; false when it is a sound upper bound. */
  readonly exact: boolean;
  /** What stopped the exact search, when `exact` is false. */
  readonly approximation?: HopApproximation;
  /** The fewest handoffs from an entry to an agent with a terminal (breadth-first search). */
  readonly shortestWalk?: number;
}

/** One checked graph of a file. */
export interface CheckedGraph {
  readonly name: string;
  /** Envelope version the validators target (`envelope` line; default 1.3, see `DEFAULT_ENVELOPE_VERSION`). */
  readonly envelope: { readonly major: number; readonly minor: number };
  /** Declared entry agents, in source order, deduplicated, known agents only. */
  readonly entries: readonly string[];
  readonly hopLimit: HopLimitInfo;
  readonly onHopLimit: HopLimitAction;
  /** Field paths hashed by `loopSignature` (default `goal.statement, decisions[].statement`). */
  readonly loopSignature: readonly string[];
  /** The required-field set of each edge kind after `contract` blocks. */
  readonly contracts: Readonly<Record<EdgeKind, readonly string[]>>;
  readonly agents: readonly CheckedAgent[];
  readonly edges: readonly CheckedEdge[];
  /** Each unbounded cycle as a witness path of agent ids, first agent repeated at the end. */
  readonly unboundedCycles: readonly (readonly string[])[];
  readonly decl: GraphDecl;
}

/** The result of checking one file: never thrown, always returned. */
export interface CheckResult {
  readonly file: SourceFile;
  readonly ast: SeamFile;
  readonly graphs: readonly CheckedGraph[];
  /** Syntax and analysis diagnostics, sorted by position. */
  readonly diagnostics: readonly Diagnostic[];
}
