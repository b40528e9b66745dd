/**
 * Builds the AST of `ast.ts` from the Chevrotain CST. The CST may be partial (recovery on):
 * a node is built only when every token it needs was really in the text. Tokens that recovery
 * inserted have NaN offsets and are never used for a range; an item missing one of its parts is
 * dropped, since the syntax diagnostic already covers it. Literal values that lex but cannot be
 * used (negative integers, integers beyond 2^53 - 1) are reported here.
 */
import type { CstElement, CstNode, IToken } from "chevrotain";
import type { Range } from "../core/source-file.js";
import type {
  AgentDecl,
  AgentVersionDecl,
  ContractDecl,
  EdgeDecl,
  EdgeKind,
  EntryDecl,
  EnvelopeDecl,
  FieldPath,
  GraphDecl,
  GraphItem,
  HopLimitAction,
  HopLimitDecl,
  Identifier,
  IntegerLiteral,
  Keyword,
  LanguageVersionDecl,
  LoopSignatureDecl,
  MaxRoundsDecl,
  OnHopLimitDecl,
  Outcome,
  RequireDecl,
  Role,
  SeamFile,
  StringLiteral,
  TerminalDecl,
  VersionLiteral,
} from "./ast.js";
import {
  createLiteralBuilder,
  LANGUAGE_VERSION,
  unknownLanguageVersion,
  type IntegerSetting,
  type ReportSyntaxError,
} from "./literals.js";

/**
 * Converts the CST root of rule `file` into a {@link SeamFile} whose range is `[0, textLength)`.
 * Never throws on partial trees.
 *
 * @param report - called for negative or out-of-range integers and unknown language versions
 */
export function cstToAst(root: CstNode, textLength: number, report: ReportSyntaxError): SeamFile {
  const b = createBuilder(report);
  const versionNode = firstNode(root, "languageVersion");
  const languageVersion = versionNode === undefined ? undefined : b.languageVersion(versionNode);
  return {
    kind: "File",
    ...(languageVersion === undefined ? {} : { languageVersion }),
    graphs: defined(nodes(root, "graph").map(b.graph)),
    range: { start: 0, end: textLength },
  };
}

function createBuilder(report: ReportSyntaxError) {
  const b = createLiteralBuilder(report);
  const identifier = (token: IToken | undefined): Identifier | undefined =>
    isReal(token) ? b.identifier(token.image, token.startOffset, endOf(token)) : undefined;

  const keyword = <T extends string>(token: IToken | undefined): Keyword<T> | undefined =>
    isReal(token) ? b.keyword<T>(token.image, token.startOffset, endOf(token)) : undefined;

  const keywordOf = <T extends string>(node: CstNode | undefined): Keyword<T> | undefined =>
    node === undefined ? undefined : keyword<T>(firstToken(node, "value"));

  const integer = (token: IToken | undefined, setting: IntegerSetting): IntegerLiteral | undefined =>
    isReal(token) ? b.integer(token.image, token.startOffset, endOf(token), setting) : undefined;

  const version = (token: IToken | undefined): VersionLiteral | undefined =>
    isReal(token) ? b.version(token.image, token.startOffset, endOf(token)) : undefined;

  const string = (token: IToken | undefined): StringLiteral | undefined =>
    isReal(token) ? b.string(token.image, token.startOffset, endOf(token)) : undefined;

  const fieldPath = (node: CstNode): FieldPath | undefined => {
    const range = nodeRange(node);
    const segments = tokens(node, "segment").sort((a, b) => a.startOffset - b.startOffset);
    if (range === undefined || segments.length === 0 || !segments.every(isReal)) return undefined;
    return b.fieldPath(
      segments.map((s) => s.image),
      range.start,
      range.end,
    );
  };

  const paths = (node: CstNode): FieldPath[] => defined(nodes(node, "fieldPath").map(fieldPath));

  const requireDecl = (node: CstNode): RequireDecl | undefined => {
    const range = nodeRange(node);
    const found = paths(node);
    return range === undefined || found.length === 0 ? undefined : { kind: "Require", paths: found, range };
  };

  const maxRounds = (node: CstNode): MaxRoundsDecl | undefined => {
    const range = nodeRange(node);
    const value = integer(firstToken(node, "value"), "max_rounds");
    return range === undefined || value === undefined ? undefined : { kind: "MaxRounds", value, range };
  };

  const terminal = (node: CstNode): TerminalDecl | undefined => {
    const range = nodeRange(node);
    const name = identifier(firstToken(node, "name"));
    if (range === undefined || name === undefined) return undefined;
    const outcomeNode = firstNode(node, "outcome");
    const outcome = keywordOf<Outcome>(outcomeNode);
    if (outcomeNode !== undefined && outcome === undefined) return undefined;
    const descriptionToken = firstToken(node, "description");
    const description = string(descriptionToken);
    if (descriptionToken !== undefined && description === undefined) return undefined;
    return {
      kind: "Terminal",
      name,
      ...(outcome === undefined ? {} : { outcome }),
      ...(description === undefined ? {} : { description }),
      range,
    };
  };

  const agentVersion = (node: CstNode): AgentVersionDecl | undefined => {
    const range = nodeRange(node);
    const value = string(firstToken(node, "value"));
    return range === undefined || value === undefined ? undefined : { kind: "AgentVersion", value, range };
  };

  const agent = (node: CstNode): AgentDecl | undefined => {
    const range = nodeRange(node);
    const name = identifier(firstToken(node, "name"));
    const role = keywordOf<Role>(firstNode(node, "role"));
    if (range === undefined || name === undefined || role === undefined) return undefined;
    const items = defined(
      nodes(node, "agentItem").map((item) => {
        const inner = onlyChild(item);
        if (inner?.name === "terminalDecl") return terminal(inner);
        if (inner?.name === "agentVersionDecl") return agentVersion(inner);
        return undefined;
      }),
    );
    return { kind: "Agent", name, role, items, range };
  };

  const contract = (node: CstNode): ContractDecl | undefined => {
    const range = nodeRange(node);
    const edgeKind = keywordOf<EdgeKind>(firstNode(node, "edgeKind"));
    if (range === undefined || edgeKind === undefined) return undefined;
    return { kind: "Contract", edgeKind, requires: defined(nodes(node, "requireDecl").map(requireDecl)), range };
  };

  const edge = (node: CstNode): EdgeDecl | undefined => {
    const range = nodeRange(node);
    const edgeKind = keywordOf<EdgeKind>(firstNode(node, "edgeKind"));
    const from = identifier(firstToken(node, "from"));
    const to = identifier(firstToken(node, "to"));
    if (range === undefined || edgeKind === undefined || from === undefined || to === undefined) return undefined;
    const observeToken = firstToken(node, "observe");
    const items = defined(
      nodes(node, "edgeItem").map((item) => {
        const inner = onlyChild(item);
        if (inner?.name === "requireDecl") return requireDecl(inner);
        if (inner?.name === "maxRoundsDecl") return maxRounds(inner);
        return undefined;
      }),
    );
    return {
      kind: "Edge",
      edgeKind,
      from,
      to,
      ...(isReal(observeToken) ? { observe: tokenRange(observeToken) } : {}),
      items,
      range,
    };
  };

  const graphItem = (node: CstNode): GraphItem | undefined => {
    const inner = onlyChild(node);
    const range = inner === undefined ? undefined : nodeRange(inner);
    if (inner === undefined || range === undefined) return undefined;
    switch (inner.name) {
      case "envelopeDecl": {
        const value = version(firstToken(inner, "version"));
        return value === undefined ? undefined : ({ kind: "Envelope", version: value, range } satisfies EnvelopeDecl);
      }
      case "entryDecl": {
        const agents = defined(tokens(inner, "agent").map(identifier));
        return agents.length === 0 ? undefined : ({ kind: "Entry", agents, range } satisfies EntryDecl);
      }
      case "hopLimitDecl": {
        const autoToken = firstToken(inner, "auto");
        const value = autoToken === undefined ? integer(firstToken(inner, "value"), "hop_limit") : keyword<"auto">(autoToken);
        return value === undefined ? undefined : ({ kind: "HopLimit", value, range } satisfies HopLimitDecl);
      }
      case "onHopLimitDecl": {
        const action = keyword<HopLimitAction>(firstToken(inner, "action"));
        return action === undefined ? undefined : ({ kind: "OnHopLimit", action, range } satisfies OnHopLimitDecl);
      }
      case "loopSignatureDecl": {
        const found = paths(inner);
        return found.length === 0 ? undefined : ({ kind: "LoopSignature", paths: found, range } satisfies LoopSignatureDecl);
      }
      case "agentDecl":
        return agent(inner);
      case "contractDecl":
        return contract(inner);
      case "edgeDecl":
        return edge(inner);
      default:
        return undefined;
    }
  };

  const graph = (node: CstNode): GraphDecl | undefined => {
    const range = nodeRange(node);
    const name = identifier(firstToken(node, "name"));
    if (range === undefined || name === undefined) return undefined;
    return { kind: "Graph", name, items: defined(nodes(node, "graphItem").map(graphItem)), range };
  };

  const languageVersion = (node: CstNode): LanguageVersionDecl | undefined => {
    const range = nodeRange(node);
    const value = integer(firstToken(node, "value"), "seam");
    if (range === undefined || value === undefined) return undefined;
    if (value.value !== LANGUAGE_VERSION) {
      report(value.range, unknownLanguageVersion(value.value));
    }
    return { kind: "LanguageVersion", value, range };
  };

  return { graph, languageVersion };
}

/** A token that was in the text (not inserted by recovery) and has offsets. */
function isReal(token: IToken | undefined): token is IToken {
  return (
    token !== undefined &&
    token.isInsertedInRecovery !== true &&
    Number.isFinite(token.startOffset) &&
    Number.isFinite(token.endOffset)
  );
}

function tokenRange(token: IToken): Range {
  return { start: token.startOffset, end: endOf(token) };
}

/** One past the token's last code unit (Chevrotain's `endOffset` is inclusive). */
function endOf(token: IToken): number {
  return (token.endOffset as number) + 1;
}

/** The node's range from Chevrotain's location tracking, which skips recovery-inserted tokens. */
function nodeRange(node: CstNode): Range | undefined {
  const location = node.location;
  if (location === undefined) return undefined;
  const { startOffset, endOffset } = location;
  if (!Number.isFinite(startOffset) || endOffset === undefined || !Number.isFinite(endOffset)) return undefined;
  return { start: startOffset, end: endOffset + 1 };
}

function isToken(element: CstElement): element is IToken {
  return "tokenType" in element;
}

// A CST key holds either only tokens or only nodes (a label names one kind of element), so the
// children arrays are used as they are, without filtered copies.

function tokens(node: CstNode, key: string): IToken[] {
  return (node.children[key] ?? []) as IToken[];
}

function nodes(node: CstNode, key: string): CstNode[] {
  return (node.children[key] ?? []) as CstNode[];
}

function firstToken(node: CstNode, key: string): IToken | undefined {
  return tokens(node, key)[0];
}

function firstNode(node: CstNode, key: string): CstNode | undefined {
  return nodes(node, key)[0];
}

/** The single sub-rule node of an alternation rule such as `graphItem`. */
function onlyChild(node: CstNode): CstNode | undefined {
  for (const key in node.children) {
    for (const element of node.children[key] as CstElement[]) if (!isToken(element)) return element;
  }
  return undefined;
}

function defined<T>(values: readonly (T | undefined)[]): T[] {
  return values.filter((v): v is T => v !== undefined);
}
