/**
 * The abstract syntax tree of a `.seam` file (DESIGN.md section 1). Every node carries the
 * {@link Range} of source text it came from. The tree is built by `parse()` even when the file
 * has syntax errors: items the parser could not complete are left out (their syntax diagnostic
 * says why), so every node present here is whole.
 */
import type { Range } from "../core/source-file.js";

/** The three roles an agent can play. */
export type Role = "supervisor" | "worker" | "peer";
/** The three kinds of edge (handoff). */
export type EdgeKind = "delegate" | "return" | "transfer";
/** How a terminal ends a task: done, cannot be done, or handed to a human. */
export type Outcome = "complete" | "failed" | "escalate";
/** What ingest does when `hop.index >= hop.limit`. */
export type HopLimitAction = "escalate" | "failed";

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
  readonly range: Range;
}

/** `terminal ID OUTCOME? STRING?` inside an agent block. */
export interface TerminalDecl {
  readonly kind: "Terminal";
  readonly name: Identifier;
  /** Absent when not written; the outcome then is `complete`. */
  readonly outcome?: Keyword<Outcome>;
  readonly description?: StringLiteral;
  readonly range: Range;
}

/** `version STRING` inside an agent block. */
export interface AgentVersionDecl {
  readonly kind: "AgentVersion";
  readonly value: StringLiteral;
  readonly range: Range;
}

/** `agent ID : ROLE { ... }`. */
export interface AgentDecl {
  readonly kind: "Agent";
  readonly name: Identifier;
  readonly role: Keyword<Role>;
  /** In source order; several `version` lines are kept so the checker can report them. */
  readonly items: readonly (TerminalDecl | AgentVersionDecl)[];
  readonly range: Range;
}

/** `require path, path...` (in a contract or an edge block). */
export interface RequireDecl {
  readonly kind: "Require";
  readonly paths: readonly FieldPath[];
  readonly range: Range;
}

/** `max_rounds INT` in an edge block. */
export interface MaxRoundsDecl {
  readonly kind: "MaxRounds";
  readonly value: IntegerLiteral;
  readonly range: Range;
}

/** `contract KIND { require ... }`: replaces the default required-field set of an edge kind. */
export interface ContractDecl {
  readonly kind: "Contract";
  readonly edgeKind: Keyword<EdgeKind>;
  readonly requires: readonly RequireDecl[];
  readonly range: Range;
}

/** `KIND from -> to observe? { ... }`. */
export interface EdgeDecl {
  readonly kind: "Edge";
  readonly edgeKind: Keyword<EdgeKind>;
  readonly from: Identifier;
  readonly to: Identifier;
  /** Present when the edge is marked `observe` (validate, but only warn). */
  readonly observe?: Range;
  readonly items: readonly (RequireDecl | MaxRoundsDecl)[];
  readonly range: Range;
}

/** `envelope 1.3`. */
export interface EnvelopeDecl {
  readonly kind: "Envelope";
  readonly version: VersionLiteral;
  readonly range: Range;
}

/** `entry a, b`. */
export interface EntryDecl {
  readonly kind: "Entry";
  readonly agents: readonly Identifier[];
  readonly range: Range;
}

/** `hop_limit 8` or `hop_limit auto` (`value` is a keyword for `auto`). */
export interface HopLimitDecl {
  readonly kind: "HopLimit";
  readonly value: IntegerLiteral | Keyword<"auto">;
  readonly range: Range;
}

/** `on_hop_limit escalate|failed`. */
export interface OnHopLimitDecl {
  readonly kind: "OnHopLimit";
  readonly action: Keyword<HopLimitAction>;
  readonly range: Range;
}

/** `loop_signature path, path...`. */
export interface LoopSignatureDecl {
  readonly kind: "LoopSignature";
  readonly paths: readonly FieldPath[];
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
  readonly items: readonly GraphItem[];
  readonly range: Range;
}

/** `seam INT`, the language version line. */
export interface LanguageVersionDecl {
  readonly kind: "LanguageVersion";
  readonly value: IntegerLiteral;
  readonly range: Range;
}

/** A whole file. `range` covers the whole text. */
export interface SeamFile {
  readonly kind: "File";
  readonly languageVersion?: LanguageVersionDecl;
  readonly graphs: readonly GraphDecl[];
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
  | Identifier
  | Keyword<string>
  | IntegerLiteral
  | StringLiteral
  | VersionLiteral
  | FieldPath;
