/**
 * The abstract syntax tree of a `.seam` file (docs/language.md). Every node carries the
 * {@link Range} of source text it came from. The tree is built by `parse()` for every file, with
 * or without syntax errors, and keeps what an editor needs mid-edit:
 *
 * - a declaration the parser could not complete is kept as an {@link Incomplete} node
 *   (`hasError: true`) holding the parts it has, so `delegate a -> ` is an edge from `a` with no
 *   target yet; a node whose parts are all there but which contains an error (a skipped token, a
 *   path ending in `.`) is kept whole with `hasError: true`;
 * - every comment is kept in {@link SeamFile.comments}, in text order (the formatter places them).
 *
 * The analysis reads only nodes without `hasError` (binding filters the others out).
 */
import type { Range } from "../core/source-file.js";
import type { EdgeKind, HopLimitAction, JoinWait, Outcome, Role } from "../core/vocabulary.js";

export type { EdgeKind, HopLimitAction, JoinWait, Outcome, Role };

/**
 * A node the parser could not complete: the fields it did not find are undefined, and
 * `hasError` is true. `kind` and `range` (what was read) are always there.
 */
export type Incomplete<T> = T extends unknown
  ? { readonly [K in keyof T as K extends "hasError" ? never : K]: K extends "kind" | "range" ? T[K] : T[K] | undefined } & {
      readonly hasError: true;
    }
  : never;

/** A node, or that node as far as the parser got ({@link Incomplete}). */
export type MaybeIncomplete<T> = T | Incomplete<T>;

/** A `//` or block comment, as written (delimiters included). */
export interface Comment {
  readonly kind: "Comment";
  readonly style: "line" | "block";
  readonly text: string;
  readonly range: Range;
}

/** A name as written, e.g. an agent id. */
export interface Identifier {
  readonly kind: "Identifier";
  readonly name: string;
  readonly range: Range;
}

/** A keyword-valued slot (role, outcome, edge kind...) with the range of its token. */
export interface Keyword<T extends string> {
  readonly kind: "Keyword";
  readonly value: T;
  readonly range: Range;
}

/** An integer literal; `value` is a safe integer (larger literals are syntax errors). */
export interface IntegerLiteral {
  readonly kind: "IntegerLiteral";
  readonly value: number;
  readonly range: Range;
}

/** A double-quoted string literal, with escapes already decoded into `value`. */
export interface StringLiteral {
  readonly kind: "StringLiteral";
  readonly value: string;
  readonly range: Range;
}

/** A `major.minor` version such as `1.3`. */
export interface VersionLiteral {
  readonly kind: "VersionLiteral";
  readonly major: number;
  readonly minor: number;
  readonly range: Range;
}

/**
 * A field path into the envelope such as `decisions[].rationale`: `segments` is
 * `["decisions", "[]", "rationale"]` and `text` is the path as written, without spaces.
 */
export interface FieldPath {
  readonly kind: "FieldPath";
  readonly segments: readonly string[];
  readonly text: string;
  /** True when a syntax error lies inside this node (it is then skipped by the analysis). */
  readonly hasError?: true;
  readonly range: Range;
}

/** `terminal ID OUTCOME? STRING?` inside an agent block. */
export interface TerminalDecl {
  readonly kind: "Terminal";
  readonly name: Identifier;
  /** Absent when not written; the outcome then is `complete`. */
  readonly outcome?: Keyword<Outcome>;
  readonly description?: StringLiteral;
  /** Whole nodes have no error; see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/** `version STRING` inside an agent block. */
export interface AgentVersionDecl {
  readonly kind: "AgentVersion";
  readonly value: StringLiteral;
  /** Whole nodes have no error; see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/** `gate` in an agent or edge block: an approval gate. */
export interface GateDecl {
  readonly kind: "Gate";
  /** Whole nodes have no error; see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/** `effect STRING` in an agent block: what the agent does outside the graph. */
export interface EffectDecl {
  readonly kind: "Effect";
  readonly value: StringLiteral;
  /** Whole nodes have no error; see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/**
 * `join WAIT of ID, ... (within INT seconds)? (otherwise (escalate | ID))?` in an agent block:
 * the agent waits for handoffs from its `inputs` before the task goes on from it.
 */
export interface JoinDecl {
  readonly kind: "Join";
  /** `all`, `any`, or how many of the inputs (k of n). */
  readonly wait: Keyword<JoinWait> | IntegerLiteral;
  /** The agents whose handoffs to this agent the join waits for, as written. */
  readonly inputs: readonly Identifier[];
  /** `within N seconds`: how long the join waits, from the fan-out. */
  readonly within?: IntegerLiteral;
  /** `otherwise escalate` (a keyword) or `otherwise TERMINAL` (a terminal of this agent). */
  readonly otherwise?: Keyword<"escalate"> | Identifier;
  /** True when a syntax error lies inside this node (it is then skipped by the analysis). */
  readonly hasError?: true;
  readonly range: Range;
}

/** A line of an agent block. */
export type AgentItem = TerminalDecl | AgentVersionDecl | GateDecl | EffectDecl | JoinDecl;

/** `agent ID : ROLE { ... }`. */
export interface AgentDecl {
  readonly kind: "Agent";
  readonly name: Identifier;
  readonly role: Keyword<Role>;
  /** In source order; several `version` lines are kept so the checker can report them. */
  readonly items: readonly MaybeIncomplete<AgentItem>[];
  /** Whole nodes have no error (errors inside their blocks are on the items); see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/** `require path, path...` (in a contract or an edge block). */
export interface RequireDecl {
  readonly kind: "Require";
  readonly paths: readonly FieldPath[];
  /** True when a syntax error lies inside this node (it is then skipped by the analysis). */
  readonly hasError?: true;
  readonly range: Range;
}

/** `max_rounds INT` in an edge block. */
export interface MaxRoundsDecl {
  readonly kind: "MaxRounds";
  readonly value: IntegerLiteral;
  /** Whole nodes have no error; see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/** `repairs INT` in an edge block: refusals per producer, while the task awaits one hop, that go back for repair before the next escalates. */
export interface RepairsDecl {
  readonly kind: "Repairs";
  readonly value: IntegerLiteral;
  /** Whole nodes have no error; see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/** `fan_out ID` in an edge block: the edge is a branch of that fan-out. */
export interface FanOutDecl {
  readonly kind: "FanOut";
  readonly name: Identifier;
  /** Whole nodes have no error; see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/**
 * A number from 0 to 1 as written (`0.8`, `1`): an integer or a `major.minor`-shaped token read
 * as a decimal fraction. `value` is the decimal's value.
 */
export interface NumberLiteral {
  readonly kind: "NumberLiteral";
  readonly value: number;
  /** As written, e.g. `0.80`. */
  readonly text: string;
  readonly range: Range;
}

/** `min_confidence NUMBER (for ID ("," ID)*)?` in an edge block: a confidence floor. */
export interface MinConfidenceDecl {
  readonly kind: "MinConfidence";
  readonly value: NumberLiteral;
  /** The decision ids the floor applies to; empty: every decision. */
  readonly decisions: readonly Identifier[];
  /** True when a syntax error lies inside this node (it is then skipped by the analysis). */
  readonly hasError?: true;
  readonly range: Range;
}

/** A comparison operator of a guard on `confidence`. */
export type ComparisonOperator = "<" | "<=" | ">" | ">=";

/**
 * One test of a guard: `status is ready, partial` (`values`), or `confidence >= 0.8`
 * (`operator` and `number`). The subject is one of the guard subjects (`core/vocabulary.ts`);
 * the parser reports a test that does not fit its subject.
 */
export type Condition =
  | {
      readonly kind: "Condition";
      readonly subject: Identifier;
      readonly test: "is";
      /** The values listed after `is`, each a name (`failed` is a keyword, read as a name here). */
      readonly values: readonly Identifier[];
      readonly range: Range;
    }
  | {
      readonly kind: "Condition";
      readonly subject: Identifier;
      readonly test: "compare";
      readonly operator: Keyword<ComparisonOperator>;
      readonly number: NumberLiteral;
      readonly range: Range;
    };

/**
 * The guard of an edge: `when condition (and condition)*`, or `otherwise` (the route taken when
 * no other guarded edge out of the same agent matches; `conditions` is then empty).
 */
export interface GuardDecl {
  readonly kind: "Guard";
  readonly otherwise: boolean;
  readonly conditions: readonly Condition[];
  /** True when a syntax error lies inside this node (it is then skipped by the analysis). */
  readonly hasError?: true;
  readonly range: Range;
}

/** `contract KIND { require ... }`: replaces the default required-field set of an edge kind. */
export interface ContractDecl {
  readonly kind: "Contract";
  readonly edgeKind: Keyword<EdgeKind>;
  readonly requires: readonly RequireDecl[];
  /** True when a syntax error lies inside this node (it is then skipped by the analysis). */
  readonly hasError?: true;
  readonly range: Range;
}

/** A line of an edge block. */
export type EdgeItem =
  | RequireDecl
  | MaybeIncomplete<MaxRoundsDecl>
  | MaybeIncomplete<RepairsDecl>
  | MaybeIncomplete<MinConfidenceDecl>
  | MaybeIncomplete<FanOutDecl>
  | GateDecl;

/** `KIND from -> to guard? observe? { ... }`. */
export interface EdgeDecl {
  readonly kind: "Edge";
  readonly edgeKind: Keyword<EdgeKind>;
  readonly from: Identifier;
  readonly to: Identifier;
  /** `when ...` or `otherwise`; absent for an edge the producer may take in any state. */
  readonly guard?: GuardDecl;
  /** Present when the edge is marked `observe` (validate, but only warn). */
  readonly observe?: Range;
  readonly items: readonly EdgeItem[];
  /** Whole nodes have no error (errors inside their blocks are on the items); see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/** `envelope 1.3`. */
export interface EnvelopeDecl {
  readonly kind: "Envelope";
  readonly version: VersionLiteral;
  /** Whole nodes have no error; see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/** `entry a, b`. */
export interface EntryDecl {
  readonly kind: "Entry";
  readonly agents: readonly Identifier[];
  /** True when a syntax error lies inside this node (it is then skipped by the analysis). */
  readonly hasError?: true;
  readonly range: Range;
}

/** `hop_limit 8` or `hop_limit auto` (`value` is a keyword for `auto`). */
export interface HopLimitDecl {
  readonly kind: "HopLimit";
  readonly value: IntegerLiteral | Keyword<"auto">;
  /** Whole nodes have no error; see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/** `on_hop_limit escalate|failed`. */
export interface OnHopLimitDecl {
  readonly kind: "OnHopLimit";
  readonly action: Keyword<HopLimitAction>;
  /** Whole nodes have no error; see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/** `loop_signature path, path...`. */
export interface LoopSignatureDecl {
  readonly kind: "LoopSignature";
  readonly paths: readonly FieldPath[];
  /** True when a syntax error lies inside this node (it is then skipped by the analysis). */
  readonly hasError?: true;
  readonly range: Range;
}

/** Anything that can stand directly in a graph block. */
export type GraphItem =
  | EnvelopeDecl
  | EntryDecl
  | HopLimitDecl
  | OnHopLimitDecl
  | LoopSignatureDecl
  | AgentDecl
  | ContractDecl
  | EdgeDecl;

/** `graph ID { item* }`; items are kept in source order. */
export interface GraphDecl {
  readonly kind: "Graph";
  readonly name: Identifier;
  readonly items: readonly MaybeIncomplete<GraphItem>[];
  /** Whole nodes have no error (errors inside their blocks are on the items); see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/** `seam INT`, the language version line. */
export interface LanguageVersionDecl {
  readonly kind: "LanguageVersion";
  readonly value: IntegerLiteral;
  /** Whole nodes have no error; see {@link Incomplete}. */
  readonly hasError?: undefined;
  readonly range: Range;
}

/** A whole file. `range` covers the whole text. */
export interface SeamFile {
  readonly kind: "File";
  readonly languageVersion?: MaybeIncomplete<LanguageVersionDecl>;
  readonly graphs: readonly MaybeIncomplete<GraphDecl>[];
  /** Every comment of the file, in text order. */
  readonly comments: readonly Comment[];
  readonly range: Range;
}

/** Any node of the tree. */
export type AstNode =
  | SeamFile
  | LanguageVersionDecl
  | GraphDecl
  | GraphItem
  | TerminalDecl
  | AgentVersionDecl
  | RequireDecl
  | MaxRoundsDecl
  | RepairsDecl
  | MinConfidenceDecl
  | GateDecl
  | EffectDecl
  | JoinDecl
  | FanOutDecl
  | GuardDecl
  | Condition
  | NumberLiteral
  | Identifier
  | Keyword<string>
  | IntegerLiteral
  | StringLiteral
  | VersionLiteral
  | FieldPath
  | Comment;
