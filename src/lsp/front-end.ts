/**
 * The language server's one door to the front end (parser, checker, lexer, formatter, rule
 * documentation). Every other module of `src/lsp` reads source text only through what this file
 * returns, so a change of front end touches this file alone.
 */
import { check } from "../analysis/check.js";
import type { CheckedGraph, CheckResult } from "../analysis/model.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { createSourceFile, type Range, type SourceFile } from "../core/source-file.js";
import { DEFAULT_CONTRACTS, EDGE_KINDS as BOUND_EDGE_KINDS } from "../analysis/bind.js";
import type { EdgeKind, HopLimitAction, Outcome, Role, SeamFile } from "../parser/ast.js";
import * as k from "../parser/scanner.js";

/** What a token is, for semantic tokens and for reading the context of a completion. */
export type TokenKind = "keyword" | "identifier" | "string" | "number" | "arrow" | "punctuation";

/** One token of the text: its kind, its UTF-16 range and, for keywords and punctuation, its text. */
export interface Token {
  readonly kind: TokenKind;
  readonly start: number;
  readonly end: number;
  /** The keyword or punctuation as written (`agent`, `{`, `[]`); the empty string for the other kinds. */
  readonly text: string;
}

/** Everything the server knows about one version of one document. */
export interface Analysis {
  readonly file: SourceFile;
  readonly ast: SeamFile;
  /** One checked graph per `graph` block that could be analysed, in source order. */
  readonly graphs: readonly CheckedGraph[];
  /** Syntax and rule diagnostics, sorted by position (what `seam check` prints). */
  readonly diagnostics: readonly Diagnostic[];
  /** Every token in source order; comments and whitespace have none. */
  readonly tokens: readonly Token[];
  /** The ranges of the comments (`// ...` without the line end, `/* ... *\/`), in source order. */
  readonly comments: readonly Range[];
}

/** The keywords of the language, which no identifier may be. */
export const KEYWORDS: readonly string[] = k.keywordWords;
/** The roles, in the grammar's order. */
export const ROLES: readonly Role[] = ["supervisor", "worker", "peer"];
/** The terminal outcomes, in the grammar's order. */
export const OUTCOMES: readonly Outcome[] = ["complete", "failed", "escalate"];
/** The edge kinds, in the grammar's order. */
export const EDGE_KINDS: readonly EdgeKind[] = BOUND_EDGE_KINDS;
/** The `on_hop_limit` actions, in the grammar's order. */
export const HOP_LIMIT_ACTIONS: readonly HopLimitAction[] = ["escalate", "failed"];
/** The required fields of each edge kind when no `contract` block replaces them. */
export { DEFAULT_CONTRACTS };

/**
 * A graph block as the parser left it. This and the node types below are derived from the
 * tree's own types, so that the server's modules handle whatever the parser keeps of a
 * half-written declaration.
 */
export type GraphNode = SeamFile["graphs"][number];
/** An item of a graph block (a setting, an agent, a contract or an edge), whole or half-written. */
export type GraphItemNode = NonNullable<GraphNode["items"]>[number];
/** An `agent` declaration, whole or half-written. */
export type AgentNode = Extract<GraphItemNode, { kind: "Agent" }>;
/** An edge declaration, whole or half-written. */
export type EdgeNode = Extract<GraphItemNode, { kind: "Edge" }>;
/** A `terminal` line of an agent block, whole or half-written. */
export type TerminalNode = Extract<NonNullable<AgentNode["items"]>[number], { kind: "Terminal" }>;

/** The open documents of one editor session. */
export interface FrontEnd {
  /**
   * Parses and checks `text` as `seam check` does, and lexes it for the editor features.
   * Never throws: problems are diagnostics.
   *
   * @param path - the name the diagnostics carry (a file path, or the document URI when it is no file)
   */
  analyse(path: string, text: string): Analysis;
  /** Forgets a closed buffer. */
  close(path: string): void;
}

/** A front end over the parser and checker (files are checked one at a time, nothing kept between calls). */
export function createFrontEnd(): FrontEnd {
  return {
    analyse(path, text) {
      const file = createSourceFile(path, text);
      return analysisOf(file, check(file), (tokens) => findComments(text, tokens));
    },
    close() {
      // Nothing is kept per file.
    },
  };
}

/** True when `name` may name an agent or a graph: the lexer reads it as one identifier (so no keyword). */
export function isIdentifier(name: string): boolean {
  const scanned = k.scan(name);
  return scanned.count === 1 && scanned.kinds[0] === k.K_IDENTIFIER && scanned.starts[0] === 0 && scanned.ends[0] === name.length;
}

/**
 * True when a suppression comment can silence findings of `rule`. This front end reads no
 * suppression comments, so none can.
 */
export function isSuppressible(_rule: string): boolean {
  return false;
}

/**
 * The address of a rule's documentation page, or `undefined` while the project publishes none
 * (the server then sends no `codeDescription`).
 */
export function ruleDocumentationUrl(_rule: string): string | undefined {
  return undefined;
}

/**
 * The document in the canonical layout (`seam fmt`), or `undefined` when it cannot be formatted
 * (it has syntax errors). `undefined` itself while the front end has no formatter: the server
 * then announces no formatting.
 */
export const formatDocument: ((analysis: Analysis) => string | undefined) | undefined = undefined;

/**
 * The replacement a diagnostic proposes in its "did you mean 'x'?" (unknown agents and fields),
 * which replaces the diagnostic's whole range; `undefined` when it proposes none.
 */
export function proposedReplacement(diagnostic: Diagnostic): string | undefined {
  if (diagnostic.rule !== "unknown-agent" && diagnostic.rule !== "unknown-field") return undefined;
  return /did you mean '([^']+)'\?/.exec(diagnostic.message)?.[1];
}

/**
 * An {@link Analysis} whose tokens and comments are made on first use: publishing diagnostics,
 * the path every keystroke takes, needs neither.
 */
function analysisOf(file: SourceFile, result: CheckResult, comments: (tokens: readonly Token[]) => readonly Range[]): Analysis {
  let tokens: readonly Token[] | undefined;
  let commentRanges: readonly Range[] | undefined;
  return {
    file,
    ast: result.ast,
    graphs: result.graphs,
    diagnostics: result.diagnostics,
    get tokens() {
      return (tokens ??= lex(file.text));
    },
    get comments() {
      return (commentRanges ??= comments(this.tokens));
    },
  };
}

const punctuation: Readonly<Record<number, string>> = {
  [k.K_LCURLY]: "{",
  [k.K_RCURLY]: "}",
  [k.K_COMMA]: ",",
  [k.K_COLON]: ":",
  [k.K_DOT]: ".",
  [k.K_BRACKETS]: "[]",
};

function lex(text: string): Token[] {
  const scanned = k.scan(text);
  const tokens: Token[] = [];
  for (let i = 0; i < scanned.count; i++) {
    const kind = scanned.kinds[i] as number;
    const start = scanned.starts[i] as number;
    const end = scanned.ends[i] as number;
    if (k.isKeyword(kind)) tokens.push({ kind: "keyword", start, end, text: KEYWORDS[kind - 1] as string });
    else if (kind === k.K_IDENTIFIER) tokens.push({ kind: "identifier", start, end, text: "" });
    else if (kind === k.K_STRING || kind === k.K_MALFORMED_STRING) tokens.push({ kind: "string", start, end, text: "" });
    else if (kind === k.K_ARROW) tokens.push({ kind: "arrow", start, end, text: "->" });
    else if (kind in punctuation) tokens.push({ kind: "punctuation", start, end, text: punctuation[kind] as string });
    else tokens.push({ kind: "number", start, end, text: "" });
  }
  return tokens;
}

/** The comments lie in the gaps between tokens (strings are tokens, so no `//` inside one is taken). */
function findComments(text: string, tokens: readonly Token[]): Range[] {
  const comments: Range[] = [];
  let gapStart = 0;
  for (let t = 0; t <= tokens.length; t++) {
    const gapEnd = tokens[t]?.start ?? text.length;
    for (let i = gapStart; i < gapEnd - 1; i++) {
      if (text.charCodeAt(i) !== 47 /* / */) continue;
      const next = text.charCodeAt(i + 1);
      if (next === 47) {
        let end = i;
        while (end < gapEnd && text[end] !== "\n" && text[end] !== "\r") end++;
        comments.push({ start: i, end });
        i = end;
      } else if (next === 42 /* * */) {
        const close = text.indexOf("*/", i + 2);
        const end = close < 0 || close + 2 > gapEnd ? gapEnd : close + 2;
        comments.push({ start: i, end });
        i = end - 1;
      }
    }
    gapStart = tokens[t]?.end ?? text.length;
  }
  return comments;
}

/** Index of the first token that starts at or after `offset` (`tokens.length` when none does); binary search. */
export function firstTokenFrom(tokens: readonly Token[], offset: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((tokens[mid] as Token).start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
