/**
 * The language server's one door to the front end (parser, checker, lexer, formatter, rule
 * documentation). Every other module of `src/lsp` reads source text only through what this file
 * returns, so a change of front end touches this file alone.
 */
import type { CheckedGraph, CheckResult } from "../analysis/model.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { createSourceFile, type Range, type SourceFile } from "../core/source-file.js";
import { ruleCatalog } from "../analysis/rules/index.js";
import { fileTooLargeRule, internalError } from "../analysis/rule.js";
import { createDiagnostic } from "../core/diagnostic.js";
import { MAX_SOURCE_BYTES, sizeOverLimit, sizeProblem } from "../core/source-limit.js";
import { DEFAULT_CONTRACTS, EDGE_KINDS, HOP_LIMIT_ACTIONS, KEYWORDS, OUTCOMES, ROLES } from "../core/vocabulary.js";
import { ruleDocsUrl } from "../core/package-files.js";
import type { SeamFile } from "../parser/ast.js";
import { printFile } from "../parser/print.js";
import { createOverlayHost } from "../program/host.js";
import { createProgram } from "../program/program.js";
import * as k from "../parser/scanner.js";
import type { NextToken } from "../parser/spec/content-assist.js";
import { firstTokenFrom, lex, relex, type Lexed, type Token, type TokenKind } from "./lexed.js";

export type { NextToken, Token, TokenKind };
export { firstTokenFrom };

/** The grammar's content assist, loaded by {@link loadGrammar} (it brings Chevrotain, 15-30 ms of self-analysis). */
let assist: typeof import("../parser/spec/content-assist.js") | undefined;

/**
 * Loads the grammar specification for {@link nextTokens}: on the first completion request, not
 * at start-up (no other request needs it).
 */
export async function loadGrammar(): Promise<void> {
  assist ??= await import("../parser/spec/content-assist.js");
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

/** The vocabulary (keywords, roles, outcomes, edge kinds, hop-limit actions, default contracts). */
export { DEFAULT_CONTRACTS, EDGE_KINDS, HOP_LIMIT_ACTIONS, KEYWORDS, OUTCOMES, ROLES };

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
   * Sets the buffer at `path` to `text` and checks it as `seam check` does (from the program's
   * cache when the text is unchanged), then lexes it for the editor features. Never throws:
   * problems are diagnostics. A text over `seam check`'s size limit is not analysed: its one
   * diagnostic is `file-too-large`, and the editor features find nothing in it. The analysis of
   * a version holds until the next version of the same path is analysed, which may move its
   * tree in place (`src/program/moved-check.ts`), and its tokens when the next one's are made
   * (`relex`).
   *
   * @param path - the document's name, which keys its last check (the language server gives the
   *   document's URI, so that two URIs of one file stay two documents)
   */
  analyse(path: string, text: string): Analysis;
  /** Forgets a closed buffer. */
  close(path: string): void;
}

/** A front end whose program reads the open buffers (an overlay host), checked per file with its cache. */
export function createFrontEnd(): FrontEnd {
  const host = createOverlayHost();
  const program = createProgram(host);
  /** Per path, the tokens of the latest version whose tokens were made: the next version's are made from them. */
  const lastLexed = new Map<string, Lexed>();
  return {
    analyse(path, text) {
      const file = createSourceFile(path, text);
      const tooLarge = sizeOverLimit(text);
      if (tooLarge !== undefined) {
        // The program's cached result for an earlier, smaller text would answer for this one.
        host.delete(path);
        program.forget(path);
        lastLexed.delete(path);
        const message = `this document ${sizeProblem(tooLarge, MAX_SOURCE_BYTES)} that Seam checks, so it is not analysed (split the graphs into smaller files)`;
        return unanalysed(file, createDiagnostic(fileTooLargeRule, { file, range: { start: 0, end: 0 }, message }));
      }
      host.set(path, text);
      const result = program.checkFile(file);
      const lexed = (): Lexed => {
        const base = lastLexed.get(path);
        const made = base === undefined ? lex(text) : relex(base, text);
        lastLexed.set(path, made);
        return made;
      };
      return analysisOf(file, result, lexed);
    },
    close(path) {
      host.delete(path);
      program.forget(path);
      lastLexed.delete(path);
    },
  };
}

/**
 * What the server knows of a document whose check threw (a bug in Seam): one `internal-error`
 * diagnostic at its start, and no tree, so that the server and the other documents go on.
 *
 * @param stage - what crashed, for the message (e.g. `the check of this document`)
 */
export function failedAnalysis(path: string, text: string, stage: string, error: unknown): Analysis {
  const file = createSourceFile(path, text);
  return unanalysed(file, internalError(file, { start: 0, end: 0 }, stage, error));
}

/** An {@link Analysis} with no tree, no tokens and the one diagnostic that says why. */
function unanalysed(file: SourceFile, diagnostic: Diagnostic): Analysis {
  return {
    file,
    ast: { kind: "File", graphs: [], comments: [], range: { start: 0, end: file.text.length } },
    graphs: [],
    diagnostics: [diagnostic],
    tokens: [],
    comments: [],
  };
}

/** True when `name` may name an agent or a graph: the lexer reads it as one identifier (so no keyword). */
export function isIdentifier(name: string): boolean {
  const scanned = k.scan(name);
  return scanned.count === 1 && scanned.kinds[0] === k.K_IDENTIFIER && scanned.starts[0] === 0 && scanned.ends[0] === name.length;
}

/** Diagnostics about the document as a whole, which no comment in it can silence and no printer fix. */
const UNANALYSED: ReadonlySet<string> = new Set(["syntax", "internal-error", fileTooLargeRule.id]);

/** Rules a suppression comment may silence: all but {@link UNANALYSED} and the rules about suppressions. */
const SUPPRESSIBLE: ReadonlySet<string> = new Set(ruleCatalog.map((r) => r.id).filter((id) => !UNANALYSED.has(id) && !id.includes("suppression")));

/** True when a `seam-disable-next-line` or `seam-disable` comment can silence findings of `rule`. */
export function isSuppressible(rule: string): boolean {
  return SUPPRESSIBLE.has(rule);
}

/**
 * The address of a rule's documentation page: the `file:` URL of `docs/rules/<id>.md` shipped
 * with this installation (the page SARIF's `helpUri` names too).
 */
export function ruleDocumentationUrl(rule: string): string {
  return ruleDocsUrl(rule);
}

/**
 * The document in the canonical layout (`seam fmt`'s printer, on the tree already parsed), or
 * `undefined` when it has syntax errors or was not analysed (its tree is empty: printing it
 * would erase the text).
 */
export function formatDocument(analysis: Analysis): string | undefined {
  return analysis.diagnostics.some((d) => UNANALYSED.has(d.rule)) ? undefined : printFile(analysis.file.text, analysis.ast);
}

/**
 * The replacement a diagnostic proposes in its "did you mean 'x'?" (unknown agents and fields),
 * which replaces the diagnostic's whole range; `undefined` when it proposes none.
 */
export function proposedReplacement(diagnostic: Diagnostic): string | undefined {
  if (diagnostic.rule !== "unknown-agent" && diagnostic.rule !== "unknown-field") return undefined;
  return /did you mean '([^']+)'\?/.exec(diagnostic.message)?.[1];
}

/** How each analysis made by {@link analysisOf} makes (once) its tokens with their scanner kinds, for {@link nextTokens}. */
const lexedOf = new WeakMap<Analysis, () => Lexed>();

/**
 * An {@link Analysis} whose tokens and comments are made on first use: publishing diagnostics,
 * the path every keystroke takes, needs neither.
 */
function analysisOf(file: SourceFile, result: CheckResult, makeLexed: () => Lexed): Analysis {
  let lexed: Lexed | undefined;
  const lexedNow = (): Lexed => (lexed ??= makeLexed());
  let commentRanges: readonly Range[] | undefined;
  const analysis: Analysis = {
    file,
    // Read through: a check carried across an edit moves its tree when first read.
    get ast() {
      return result.ast;
    },
    get graphs() {
      return result.graphs;
    },
    diagnostics: result.diagnostics,
    get tokens() {
      return lexedNow().tokens;
    },
    get comments() {
      return (commentRanges ??= result.ast.comments.map((c) => c.range));
    },
  };
  lexedOf.set(analysis, lexedNow);
  return analysis;
}

/**
 * What the grammar specification accepts after the tokens of `analysis` at `indices` (positions
 * in {@link Analysis.tokens}, in order): Chevrotain's content assist, so completion follows the
 * grammar. Empty when those tokens are no valid beginning of a file. Only the tokens at `indices`
 * are made into the grammar's tokens.
 *
 * @throws Error before {@link loadGrammar} has finished (a bug in Seam)
 */
export function nextTokens(analysis: Analysis, indices: readonly number[]): NextToken[] {
  if (assist === undefined) throw new Error("internal: nextTokens before loadGrammar");
  const { toChevrotainToken, nextTokensAfter } = assist;
  const lexed = lexedOf.get(analysis)?.();
  const { text } = analysis.file;
  return nextTokensAfter(
    indices.map((i) => {
      const token = lexed?.tokens[i];
      if (lexed === undefined || token === undefined) throw new Error(`internal: no token ${i} in ${analysis.file.path}`);
      return toChevrotainToken(text, lexed.kinds[i] as number, token.start, token.end);
    }),
  );
}
