/**
 * The fast path of `parse()`: a recursive-descent reading of the Seam grammar over the scanned
 * token arrays that builds the AST directly, for files without syntax errors (nearly every file
 * a user checks). At the first token the grammar does not allow it gives up, and `parse()` runs
 * the Chevrotain parser instead, which owns error recovery and messages.
 *
 * Why a second reading of the grammar: the Chevrotain parser's self-analysis costs 15-20 ms at
 * every start, and its CST (one node and several arrays per rule) made a 10^4-agent file take
 * 1-2 s and most of the garbage; this path takes a few milliseconds there. The grammar stays the
 * Chevrotain parser's: every rule below names its production in `parser.ts`, and
 * `test/parser/direct-parser.test.ts` checks that both give the same tree (and that this path
 * gives up exactly when Chevrotain reports an error) on the fixtures and on random mutations.
 */
import type { Range } from "../core/source-file.js";
import type {
  AgentDecl,
  ContractDecl,
  EdgeDecl,
  EdgeKind,
  FieldPath,
  GraphDecl,
  GraphItem,
  HopLimitAction,
  LanguageVersionDecl,
  MaxRoundsDecl,
  Outcome,
  RequireDecl,
  Role,
  SeamFile,
  TerminalDecl,
  AgentVersionDecl,
  Identifier,
  Keyword,
} from "./ast.js";
import { createLiteralBuilder, LANGUAGE_VERSION, unknownLanguageVersion } from "./literals.js";
import * as k from "./scanner.js";

/** What the fast path found: the tree and the literal errors (negative or too large integers, unknown language version). */
export interface DirectParseResult {
  readonly ast: SeamFile;
  readonly errors: readonly { range: Range; message: string }[];
}

/** Thrown inside {@link parseDirect} at the first syntax error; never escapes it. */
const GIVE_UP: unique symbol = Symbol("give up");

/**
 * Parses the scanned tokens of `text`; undefined when they hold a syntax error (a token the
 * grammar does not allow there, or too few tokens). Never throws.
 */
export function parseDirect(text: string, scanned: k.ScanResult): DirectParseResult | undefined {
  const { count, kinds, starts, ends } = scanned;
  const errors: { range: Range; message: string }[] = [];
  const b = createLiteralBuilder((range, message) => errors.push({ range, message }));
  let pos = 0;

  const peek = (): number => (pos < count ? (kinds[pos] as number) : -1);
  /** Consumes a token of `kind`; returns its index. */
  const expect = (kind: number): number => {
    if (pos >= count || kinds[pos] !== kind) throw GIVE_UP;
    return pos++;
  };
  // A negative integer is an integer to the grammar; the literal builder reports it.
  const expectInteger = (): number => {
    const kind = peek();
    if (kind !== k.K_INTEGER && kind !== k.K_NEGATIVE_INTEGER) throw GIVE_UP;
    return pos++;
  };
  const expectString = (): number => {
    const kind = peek();
    if (kind !== k.K_STRING && kind !== k.K_MALFORMED_STRING) throw GIVE_UP;
    return pos++;
  };
  const start = (i: number): number => starts[i] as number;
  const end = (i: number): number => ends[i] as number;
  const image = (i: number): string => text.slice(starts[i] as number, ends[i] as number);
  const range = (first: number, last: number): Range => ({ start: starts[first] as number, end: ends[last] as number });
  const identifier = (i: number): Identifier => b.identifier(image(i), start(i), end(i));
  const keyword = <T extends string>(i: number): Keyword<T> =>
    b.keyword<T>(k.keywordWords[(kinds[i] as number) - 1] as string, start(i), end(i));
  /** Consumes a keyword of a kind in `[first, first + 2]` (the three roles, outcomes or edge kinds). */
  const oneOfThree = <T extends string>(first: number): Keyword<T> => {
    const kind = peek();
    if (kind < first || kind > first + 2) throw GIVE_UP;
    return keyword<T>(pos++);
  };

  // fieldPath = ID ("." NAME | "[]")*
  const fieldPath = (): FieldPath => {
    const first = expect(k.K_IDENTIFIER);
    const names = [image(first)];
    let last = first;
    for (;;) {
      const kind = peek();
      if (kind === k.K_DOT) {
        pos++;
        const name = peek();
        if (name !== k.K_IDENTIFIER && !k.isKeyword(name)) throw GIVE_UP;
        last = pos++;
        names.push(image(last));
      } else if (kind === k.K_BRACKETS) {
        last = pos++;
        names.push("[]");
      } else {
        return b.fieldPath(names, start(first), end(last));
      }
    }
  };

  // fieldPath ("," fieldPath)*
  const pathList = (): FieldPath[] => {
    const paths = [fieldPath()];
    while (peek() === k.K_COMMA) {
      pos++;
      paths.push(fieldPath());
    }
    return paths;
  };

  // requireDecl = "require" fieldPath ("," fieldPath)*
  const requireDecl = (): RequireDecl => {
    const first = expect(k.K_REQUIRE);
    const paths = pathList();
    return { kind: "Require", paths, range: range(first, pos - 1) };
  };

  // Roles, outcomes and edge kinds are three consecutive kinds each (scanner.ts).
  const isOutcome = (kind: number): boolean => kind >= k.K_COMPLETE && kind <= k.K_ESCALATE;
  const isEdgeKind = (kind: number): boolean => kind >= k.K_DELEGATE && kind <= k.K_TRANSFER;

  // terminalDecl = "terminal" ID outcome? STRING?
  const terminalDecl = (): TerminalDecl => {
    const first = pos++;
    const name = identifier(expect(k.K_IDENTIFIER));
    const outcome = isOutcome(peek()) ? keyword<Outcome>(pos++) : undefined;
    const kind = peek();
    const description = kind === k.K_STRING || kind === k.K_MALFORMED_STRING ? pos++ : -1;
    return {
      kind: "Terminal",
      name,
      ...(outcome === undefined ? {} : { outcome }),
      ...(description < 0 ? {} : { description: b.string(image(description), start(description), end(description)) }),
      range: range(first, pos - 1),
    };
  };

  // agentDecl = "agent" ID ":" role ("{" agentItem* "}")?
  const agentDecl = (): AgentDecl => {
    const first = pos++;
    const name = identifier(expect(k.K_IDENTIFIER));
    expect(k.K_COLON);
    const role = oneOfThree<Role>(k.K_SUPERVISOR);
    const items: (TerminalDecl | AgentVersionDecl)[] = [];
    if (peek() === k.K_LCURLY) {
      pos++;
      for (;;) {
        const kind = peek();
        if (kind === k.K_TERMINAL) {
          items.push(terminalDecl());
        } else if (kind === k.K_VERSION) {
          const itemStart = pos++;
          const value = expectString();
          items.push({ kind: "AgentVersion", value: b.string(image(value), start(value), end(value)), range: range(itemStart, value) });
        } else {
          break;
        }
      }
      expect(k.K_RCURLY);
    }
    return { kind: "Agent", name, role, items, range: range(first, pos - 1) };
  };

  // contractDecl = "contract" edgeKind "{" requireDecl* "}"
  const contractDecl = (): ContractDecl => {
    const first = pos++;
    const edgeKind = oneOfThree<EdgeKind>(k.K_DELEGATE);
    expect(k.K_LCURLY);
    const requires: RequireDecl[] = [];
    while (peek() === k.K_REQUIRE) requires.push(requireDecl());
    expect(k.K_RCURLY);
    return { kind: "Contract", edgeKind, requires, range: range(first, pos - 1) };
  };

  // edgeDecl = edgeKind ID "->" ID "observe"? ("{" edgeItem* "}")?
  const edgeDecl = (): EdgeDecl => {
    const first = pos;
    const edgeKind = keyword<EdgeKind>(pos++);
    const from = identifier(expect(k.K_IDENTIFIER));
    expect(k.K_ARROW);
    const to = identifier(expect(k.K_IDENTIFIER));
    const observe = peek() === k.K_OBSERVE ? pos++ : -1;
    const items: (RequireDecl | MaxRoundsDecl)[] = [];
    if (peek() === k.K_LCURLY) {
      pos++;
      for (;;) {
        const kind = peek();
        if (kind === k.K_REQUIRE) {
          items.push(requireDecl());
        } else if (kind === k.K_MAX_ROUNDS) {
          // maxRoundsDecl = "max_rounds" INT (dropped when the integer is negative or too large)
          const itemStart = pos++;
          const token = expectInteger();
          const value = b.integer(image(token), start(token), end(token), "max_rounds");
          if (value !== undefined) items.push({ kind: "MaxRounds", value, range: range(itemStart, token) });
        } else {
          break;
        }
      }
      expect(k.K_RCURLY);
    }
    const itemRange = range(first, pos - 1);
    // Two literals rather than a spread: this is the most frequent node of a large graph.
    return observe < 0
      ? { kind: "Edge", edgeKind, from, to, items, range: itemRange }
      : { kind: "Edge", edgeKind, from, to, observe: range(observe, observe), items, range: itemRange };
  };

  // graphItem; undefined for an item dropped because a literal is unusable (already reported).
  const graphItem = (): GraphItem | undefined => {
    const first = pos;
    switch (peek()) {
      case k.K_ENVELOPE: {
        pos++;
        // A long version (`1.3.0`) is a version to the grammar; the literal builder reports it.
        const kind = peek();
        if (kind !== k.K_VERSION_NUMBER && kind !== k.K_LONG_VERSION) throw GIVE_UP;
        const token = pos++;
        const version = b.version(image(token), start(token), end(token));
        return version === undefined ? undefined : { kind: "Envelope", version, range: range(first, token) };
      }
      case k.K_ENTRY: {
        pos++;
        const agents = [identifier(expect(k.K_IDENTIFIER))];
        while (peek() === k.K_COMMA) {
          pos++;
          agents.push(identifier(expect(k.K_IDENTIFIER)));
        }
        return { kind: "Entry", agents, range: range(first, pos - 1) };
      }
      case k.K_HOP_LIMIT: {
        pos++;
        const kind = peek();
        if (kind === k.K_AUTO) return { kind: "HopLimit", value: keyword<"auto">(pos), range: range(first, pos++) };
        const token = expectInteger();
        const value = b.integer(image(token), start(token), end(token), "hop_limit");
        return value === undefined ? undefined : { kind: "HopLimit", value, range: range(first, token) };
      }
      case k.K_ON_HOP_LIMIT: {
        pos++;
        const kind = peek();
        if (kind !== k.K_ESCALATE && kind !== k.K_FAILED) throw GIVE_UP;
        return { kind: "OnHopLimit", action: keyword<HopLimitAction>(pos), range: range(first, pos++) };
      }
      case k.K_LOOP_SIGNATURE: {
        pos++;
        const paths = pathList();
        return { kind: "LoopSignature", paths, range: range(first, pos - 1) };
      }
      case k.K_AGENT:
        return agentDecl();
      case k.K_CONTRACT:
        return contractDecl();
      case k.K_DELEGATE:
      case k.K_RETURN:
      case k.K_TRANSFER:
        return edgeDecl();
      default:
        throw GIVE_UP;
    }
  };

  const isGraphItemStart = (kind: number): boolean =>
    (kind >= k.K_ENVELOPE && kind <= k.K_HOP_LIMIT) ||
    (kind >= k.K_ON_HOP_LIMIT && kind <= k.K_AGENT) ||
    kind === k.K_CONTRACT ||
    isEdgeKind(kind);

  // graph = "graph" ID "{" graphItem* "}"
  const graph = (): GraphDecl => {
    const first = expect(k.K_GRAPH);
    const name = identifier(expect(k.K_IDENTIFIER));
    expect(k.K_LCURLY);
    const items: GraphItem[] = [];
    while (isGraphItemStart(peek())) {
      const item = graphItem();
      if (item !== undefined) items.push(item);
    }
    expect(k.K_RCURLY);
    return { kind: "Graph", name, items, range: range(first, pos - 1) };
  };

  // languageVersion = "seam" INT
  const languageVersion = (): LanguageVersionDecl | undefined => {
    const first = pos++;
    const token = expectInteger();
    const value = b.integer(image(token), start(token), end(token), "seam");
    if (value === undefined) return undefined;
    if (value.value !== LANGUAGE_VERSION) errors.push({ range: value.range, message: unknownLanguageVersion(value.value) });
    return { kind: "LanguageVersion", value, range: range(first, token) };
  };

  try {
    // file = languageVersion? graph+
    const version = peek() === k.K_SEAM ? languageVersion() : undefined;
    const graphs = [graph()];
    while (peek() === k.K_GRAPH) graphs.push(graph());
    if (pos !== count) return undefined;
    const ast: SeamFile = {
      kind: "File",
      ...(version === undefined ? {} : { languageVersion: version }),
      graphs,
      range: { start: 0, end: text.length },
    };
    return { ast, errors };
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
}
