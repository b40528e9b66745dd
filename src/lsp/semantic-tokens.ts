/**
 * `textDocument/semanticTokens/full`: what the TextMate grammar cannot know, from the tree: which
 * identifier is a graph, an agent (declared or merely used) or a terminal, and that a keyword
 * inside a field path (`to_agent.version`) is a field. Keywords, strings, numbers and the arrow
 * are sent too, so a client without the grammar still colours the whole file. Encoded as LSP
 * 3.17 asks: five integers per token, each position relative to the previous token.
 */
import type { SemanticTokens, SemanticTokensLegend } from "vscode-languageserver/node";
import { firstTokenFrom, type Analysis, type Token } from "./front-end.js";
import { nameOccurrences } from "./names.js";
import { toPosition } from "./positions.js";

const TOKEN_TYPES = ["namespace", "class", "enumMember", "property", "keyword", "string", "number", "operator"] as const;
const TOKEN_MODIFIERS = ["declaration"] as const;
type TokenType = (typeof TOKEN_TYPES)[number];

/** The legend the server announces in its capabilities. */
export const SEMANTIC_TOKENS_LEGEND: SemanticTokensLegend = { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] };

const typeIndex = (type: TokenType): number => TOKEN_TYPES.indexOf(type);
const DECLARATION = 1 << TOKEN_MODIFIERS.indexOf("declaration");

/** The semantic tokens of the whole document. */
export function semanticTokens(analysis: Analysis): SemanticTokens {
  // What the tree says about the tokens it names, by start offset.
  const named = new Map<number, { type: TokenType; modifiers: number }>();
  for (const o of nameOccurrences(analysis)) {
    named.set(o.range.start, { type: o.kind === "graph" ? "namespace" : "class", modifiers: o.declaration ? DECLARATION : 0 });
  }
  for (const graph of analysis.ast.graphs) {
    for (const item of graph.items ?? []) {
      if (item.kind === "Agent") {
        for (const t of item.items ?? []) {
          if (t.kind === "Terminal" && t.name !== undefined) named.set(t.name.range.start, { type: "enumMember", modifiers: DECLARATION });
        }
      }
      const paths =
        item.kind === "LoopSignature"
          ? item.paths
          : item.kind === "Contract"
            ? item.requires?.flatMap((r) => r.paths)
            : item.kind === "Edge"
              ? item.items?.flatMap((r) => (r.kind === "Require" ? r.paths : []))
              : [];
      for (const path of paths ?? []) markPath(analysis.tokens, path.range, named);
    }
  }
  const data: number[] = [];
  let line = 0;
  let character = 0;
  for (const token of analysis.tokens) {
    const known = named.get(token.start);
    const type = known?.type ?? plainType(token);
    if (type === undefined) continue;
    const at = toPosition(analysis.file, token.start);
    data.push(at.line - line, at.line === line ? at.character - character : at.character, token.end - token.start, typeIndex(type), known?.modifiers ?? 0);
    line = at.line;
    character = at.character;
  }
  return { data };
}

/** Marks the words of a field path as fields. */
function markPath(tokens: readonly Token[], range: { start: number; end: number }, named: Map<number, { type: TokenType; modifiers: number }>): void {
  for (let i = firstTokenFrom(tokens, range.start); i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.start >= range.end) break;
    if ((token.kind === "identifier" || token.kind === "keyword")) named.set(token.start, { type: "property", modifiers: 0 });
  }
}

function plainType(token: Token): TokenType | undefined {
  switch (token.kind) {
    case "keyword":
      return "keyword";
    case "string":
      return "string";
    case "number":
      return "number";
    case "arrow":
      return "operator";
    default:
      return undefined;
  }
}
