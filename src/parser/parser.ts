/**
 * The Seam parser: hand-written recursive descent over the scanner's token arrays, the one code
 * path that builds the AST of every file, with or without errors (the design of TypeSpec's
 * `parser.ts`, rust-analyzer and Biome: a hand parser with recovery sets, so an editor gets a
 * tree of a file being typed).
 *
 * Recovery, in the order it is tried where an expected token is missing:
 * - a keyword where a name belongs is read as that name (`agent peer: peer`), and digits glued to
 *   a name as one name (`agent 9x`), each with its own message, so the item survives;
 * - single-token deletion: the token after the unexpected one is the expected one
 *   (`agent a -1: worker`), so the unexpected token is skipped;
 * - single-token insertion: the unexpected token is what follows the missing one
 *   (`agent a worker`), so the missing token is assumed;
 * - otherwise the declaration ends there, kept as an {@link Incomplete} node with the parts it
 *   has, and the enclosing list skips tokens (balanced `{ }` as one) up to its recovery set: a
 *   token that starts one of its items, its closing `}`, or a token that starts an item of an
 *   enclosing list. Tokens skipped right after an error are not reported again.
 *
 * `spec/grammar.ts` states the same grammar in Chevrotain; `test/parser/spec.property.test.ts`
 * holds this parser to it (same accept/reject, same tree) on generated and mutated files.
 */
import type { Range } from "../core/source-file.js";
import { AGENT_SETTINGS, EDGE_SETTINGS, type SettingSpec } from "../core/settings.js";
import { EDGE_KINDS, GUARD_SUBJECT_NAMES, GUARD_SUBJECTS, HOP_LIMIT_ACTIONS, JOIN_WAITS, OUTCOMES, ROLES, type GuardSubject } from "../core/vocabulary.js";
import type {
  AgentDecl,
  AgentItem,
  Comment,
  ComparisonOperator,
  Condition,
  GuardDecl,
  MinConfidenceDecl,
  ContractDecl,
  EdgeDecl,
  EdgeKind,
  EntryDecl,
  FieldPath,
  GraphDecl,
  GraphItem,
  HopLimitAction,
  Identifier,
  JoinDecl,
  JoinWait,
  Keyword,
  LanguageVersionDecl,
  LoopSignatureDecl,
  EdgeItem,
  IntegerLiteral,
  MaybeIncomplete,
  Outcome,
  RequireDecl,
  Role,
  SeamFile,
  StringLiteral,
  TerminalDecl,
} from "./ast.js";
import { gluesIntoName } from "./glue.js";
import { createLiteralBuilder, LANGUAGE_VERSION, unknownLanguageVersion, type IntegerSetting } from "./literals.js";
import { expectedMessage, keywordAsName, listAlternatives, nameStartsWithDigit } from "./messages.js";
import { createNameTable } from "./name-table.js";
import * as k from "./scanner.js";

/** One error the parser found: `parse` (the grammar) or `literal` (a value that lexes but is unusable). */
export interface ParseError {
  readonly kind: "parse" | "literal";
  readonly range: Range;
  readonly message: string;
}

/** What {@link parseTokens} returns. */
export interface ParserResult {
  readonly ast: SeamFile;
  /** In the order found (not sorted). */
  readonly errors: readonly ParseError[];
}

/** Options of {@link parseTokens}. */
export interface ParserOptions {
  /**
   * Stop after this many errors: the tree is then empty (a tree of the part read would mislead
   * the checks that run on it). Default: no limit.
   */
  readonly maxErrors?: number;
}

/** Thrown inside {@link parseTokens} at the error limit; never escapes it. */
const LIMIT_REACHED: unique symbol = Symbol("error limit reached");

const quote = (word: string): string => `'${word}'`;

/**
 * A set of token kinds as a lookup table (`set[kind] === 1`; `-1`, the end of the input, reads as
 * undefined): the parser tests membership for nearly every token, and an indexed load is
 * cheaper than a `Set` lookup or a call there.
 */
type KindSet = Uint8Array;

function kindTable(kinds: Iterable<number>): KindSet {
  const table = new Uint8Array(256);
  for (const kind of kinds) table[kind] = 1;
  return table;
}

const kindSet = (words: readonly string[]): KindSet => kindTable(words.map(k.keywordKind));

// What error messages say is expected where a role, an edge kind or an action is missing.
const EXPECTED_ROLE = listAlternatives(ROLES.map(quote));
const EXPECTED_EDGE_KIND = listAlternatives(EDGE_KINDS.map(quote));
const EXPECTED_ACTION = listAlternatives(HOP_LIMIT_ACTIONS.map(quote));

const ROLE_KINDS = kindSet(ROLES);
const OUTCOME_KINDS = kindSet(OUTCOMES);
const ACTION_KINDS = kindSet(HOP_LIMIT_ACTIONS);
const EDGE_KIND_KINDS = kindSet(EDGE_KINDS);
const KW_SEAM = k.keywordKind("seam");
const KW_GRAPH = k.keywordKind("graph");
const KW_ENVELOPE = k.keywordKind("envelope");
const KW_ENTRY = k.keywordKind("entry");
const KW_HOP_LIMIT = k.keywordKind("hop_limit");
const KW_AUTO = k.keywordKind("auto");
const KW_ON_HOP_LIMIT = k.keywordKind("on_hop_limit");
const KW_LOOP_SIGNATURE = k.keywordKind("loop_signature");
const KW_AGENT = k.keywordKind("agent");
const KW_CONTRACT = k.keywordKind("contract");
const KW_OBSERVE = k.keywordKind("observe");
const KW_REQUIRE = k.keywordKind("require");
const KW_WHEN = k.keywordKind("when");
const KW_OTHERWISE = k.keywordKind("otherwise");
const KW_IS = k.keywordKind("is");
const KW_AND = k.keywordKind("and");
const KW_FOR = k.keywordKind("for");
const KW_OF = k.keywordKind("of");
const KW_WITHIN = k.keywordKind("within");
const KW_SECONDS = k.keywordKind("seconds");
const KW_ESCALATE = k.keywordKind("escalate");
const JOIN_WAIT_KINDS = kindSet(JOIN_WAITS);
const EXPECTED_JOIN_WAIT = `${listAlternatives(JOIN_WAITS.map(quote))} or a count`;

/** The settings of a block (`core/settings.ts`) by the token kind of their keyword. */
const settingsByKind = (specs: readonly SettingSpec[]): ReadonlyMap<number, SettingSpec> =>
  new Map(specs.map((spec) => [k.keywordKind(spec.keyword), spec]));
const AGENT_SETTING_OF = settingsByKind(AGENT_SETTINGS);
const EDGE_SETTING_OF = settingsByKind(EDGE_SETTINGS);
/** What a block's error message expects: its settings' keywords, then `}`. */
const expectedInBlock = (specs: readonly SettingSpec[]): string => listAlternatives([...specs.map((s) => quote(s.keyword)), "'}'"]);
const EXPECTED_SUBJECT = `a guard subject: ${listAlternatives(GUARD_SUBJECT_NAMES.map(quote))}`;

/** Tokens that start a graph item. */
const GRAPH_ITEM_START_LIST: readonly number[] = [
  KW_ENVELOPE, KW_ENTRY, KW_HOP_LIMIT, KW_ON_HOP_LIMIT, KW_LOOP_SIGNATURE, KW_AGENT, KW_CONTRACT, ...EDGE_KINDS.map(k.keywordKind),
];
const GRAPH_ITEM_STARTS: KindSet = kindTable(GRAPH_ITEM_START_LIST);
const AGENT_ITEM_STARTS: KindSet = kindTable(AGENT_SETTING_OF.keys());
const EDGE_ITEM_STARTS: KindSet = kindTable(EDGE_SETTING_OF.keys());
const CONTRACT_ITEM_STARTS: KindSet = kindTable([KW_REQUIRE]);
const GRAPH_STARTS: KindSet = kindTable([KW_GRAPH]);

/**
 * Keywords that take a keyword as their argument when they begin an item (`contract transfer`,
 * `on_hop_limit failed`, `hop_limit auto`).
 */
const KEYWORD_ARGUMENTS: ReadonlyMap<number, KindSet> = new Map([
  [KW_CONTRACT, EDGE_KIND_KINDS],
  [KW_ON_HOP_LIMIT, ACTION_KINDS],
  [KW_HOP_LIMIT, kindTable([KW_AUTO])],
]);

/** Kinds that can follow an item keyword: a name, a number, a version or a string. */
const VALUE_KINDS: KindSet = kindTable([
  k.K_IDENTIFIER, k.K_INTEGER, k.K_NEGATIVE_NUMBER, k.K_MALFORMED_NUMBER, k.K_VERSION_NUMBER, k.K_LONG_VERSION, k.K_STRING, k.K_MALFORMED_STRING,
]);

/** Tokens read as a number from 0 to 1 (the version-shaped ones as decimals; `-1` and `1.2.3` are reported). */
const NUMBER_KINDS: KindSet = kindTable([k.K_INTEGER, k.K_NEGATIVE_NUMBER, k.K_MALFORMED_NUMBER, k.K_VERSION_NUMBER, k.K_LONG_VERSION]);
/** Tokens read where an integer belongs: the integer, and the numbers that are reported there (`-1`, `1e3`). */
const INTEGER_KINDS: KindSet = kindTable([k.K_INTEGER, k.K_NEGATIVE_NUMBER, k.K_MALFORMED_NUMBER]);

/** The items of every agent and edge written without a block: one shared empty list, not one per declaration. */
const NO_ITEMS: readonly never[] = Object.freeze([]);

/**
 * A list the tree keeps (a block's items, a `require` line's paths, a path's segments) in an
 * array of its own length. An array that grew by `push` keeps room for 16 elements after its
 * first: ~120 bytes left unused in each of the ~2 * 10^5 one-line blocks of the bench's largest
 * graph, kept as long as the tree. A short copy costs less than that room;
 * a long list (a graph's items) has little room left over relative to its length and is kept.
 */
function fitted<T>(items: T[]): T[] {
  return items.length === 0 || items.length > 16 ? items : items.slice();
}

/** A list of the block's items, what its error messages expect, and the tokens it syncs on. */
interface BlockSpec {
  readonly starts: KindSet;
  readonly expected: string;
  /** Item starts of the enclosing lists: the block ends (unclosed) before one of them. */
  readonly outer: KindSet;
}

const GRAPH_BLOCK: BlockSpec = { starts: GRAPH_ITEM_STARTS, expected: "a graph item or '}'", outer: GRAPH_STARTS };
const OUTER_OF_ITEM: KindSet = kindTable([...GRAPH_ITEM_START_LIST, KW_GRAPH]);
const AGENT_BLOCK: BlockSpec = { starts: AGENT_ITEM_STARTS, expected: expectedInBlock(AGENT_SETTINGS), outer: OUTER_OF_ITEM };
const EDGE_BLOCK: BlockSpec = { starts: EDGE_ITEM_STARTS, expected: expectedInBlock(EDGE_SETTINGS), outer: OUTER_OF_ITEM };
const CONTRACT_BLOCK: BlockSpec = { starts: CONTRACT_ITEM_STARTS, expected: "'require' or '}'", outer: OUTER_OF_ITEM };

/**
 * Parses the scanned tokens of `text` into a tree; every node has a range inside `text`. Errors
 * found where a block comment swallowed the rest of the file (`scanned.unterminatedComment`) are
 * left out when they are at the end of the file: the comment's own error says what to fix. Never
 * throws.
 */
export function parseTokens(text: string, scanned: k.ScanResult, options: ParserOptions = {}): ParserResult {
  const { count, kinds, starts, ends } = scanned;
  const maxErrors = options.maxErrors ?? Number.POSITIVE_INFINITY;
  const errors: ParseError[] = [];
  const pushError = (kind: ParseError["kind"], range: Range, message: string): void => {
    errors.push({ kind, range, message });
    if (errors.length >= maxErrors) throw LIMIT_REACHED;
  };
  const b = createLiteralBuilder((range, message) => pushError("literal", range, message));
  const endOfInput = count === 0 ? text.length : (ends[count - 1] as number);
  const commentTookTheRest = scanned.unterminatedComment >= 0;
  let pos = 0;
  /** An error was reported and no token has been read since: skipped tokens are not reported again. */
  let recovering = false;

  const peek = (): number => (pos < count ? (kinds[pos] as number) : -1);
  const peekAt = (ahead: number): number => (pos + ahead < count ? (kinds[pos + ahead] as number) : -1);
  const at = (kind: number): boolean => pos < count && kinds[pos] === kind;
  const image = (i: number): string => text.slice(starts[i] as number, ends[i] as number);
  const start = (i: number): number => starts[i] as number;
  const end = (i: number): number => ends[i] as number;
  const span = (first: number, last: number): Range => ({ start: starts[first] as number, end: ends[last] as number });
  /** Consumes one token; returns its index. */
  const next = (): number => {
    recovering = false;
    return pos++;
  };

  /** Reports `expected <what>` at the current token (or the end of the file) unless recovering. */
  const expected = (what: string): void => {
    if (recovering) return;
    recovering = true;
    const previous = pos > 0 ? image(pos - 1) : undefined;
    if (pos >= count) {
      if (!commentTookTheRest) pushError("parse", { start: endOfInput, end: endOfInput }, expectedMessage(what, previous, undefined));
      return;
    }
    pushError("parse", { start: start(pos), end: end(pos) }, expectedMessage(what, previous, image(pos)));
  };

  /**
   * Expects a token of `kind`, with single-token deletion and insertion (see the file comment);
   * `follows` are the kinds that may come right after it. False when it is missing and neither
   * repair applies (the caller ends its declaration).
   */
  const expectToken = (kind: number, label: string, follows: KindSet): boolean => {
    if (at(kind)) {
      next();
      return true;
    }
    expected(label);
    if (peekAt(1) === kind && pos < count) {
      pos += 2;
      recovering = false;
      return true;
    }
    if (follows[peek()] === 1) {
      recovering = false;
      return true;
    }
    return false;
  };

  // Memory of a large graph: each name is kept once however often it is written (an agent of
  // 10^5 is named in several edges), and a keyword's text is the vocabulary's own string.
  const names = createNameTable(text);
  const identifier = (i: number): Identifier => b.identifier(names.intern(start(i), end(i)), start(i), end(i));
  const keyword = <T extends string>(i: number): Keyword<T> => b.keyword<T>(k.keywordOfKind(kinds[i] as number) ?? image(i), start(i), end(i));

  /** True when `keyword` followed by `after` reads as the start of an item (so a name is missing, not spelt as a keyword). */
  const startsAnItem = (keywordKind: number, after: number): boolean =>
    VALUE_KINDS[after] === 1 || KEYWORD_ARGUMENTS.get(keywordKind)?.[after] === 1;

  /**
   * A name: an identifier, or a stand-in read as the name with its own error (a keyword that
   * does not start an item, digits glued to a name). Undefined (reported) when there is none.
   */
  const name = (): Identifier | undefined => {
    const kind = peek();
    if (kind === k.K_IDENTIFIER) return identifier(next());
    if (k.isKeyword(kind) && !startsAnItem(kind, peekAt(1))) {
      const i = next();
      pushError("parse", span(i, i), keywordAsName(image(i)));
      return identifier(i);
    }
    if (pos + 1 < count && gluesIntoName(kind, peekAt(1)) && start(pos + 1) === end(pos)) {
      const first = next();
      const last = next();
      const range = span(first, last);
      const glued = text.slice(range.start, range.end);
      pushError("parse", range, nameStartsWithDigit(glued));
      return b.identifier(glued, range.start, range.end);
    }
    expected("a name");
    return undefined;
  };

  /** One of `kinds` as a keyword node, or undefined (reported as `expected <label>`). */
  const oneOf = <T extends string>(kinds: KindSet, label: string): Keyword<T> | undefined => {
    if (kinds[peek()] === 1) return keyword<T>(next());
    expected(label);
    return undefined;
  };

  /** The index of a token of kind `a` or `b` (consumed), or -1 (reported as `expected <label>`). */
  const valueToken = (one: number, other: number, label: string): number => {
    const kind = peek();
    if (kind === one || kind === other) return next();
    expected(label);
    return -1;
  };

  /** The index of a token of {@link INTEGER_KINDS} (consumed), or -1 (reported as `expected <label>`). */
  const integerToken = (label: string): number => {
    if (INTEGER_KINDS[peek()] === 1) return next();
    expected(label);
    return -1;
  };

  // fieldPath = ID ("." NAME | "[]")*
  const fieldPath = (): FieldPath | undefined => {
    const first = pos;
    const head = name();
    if (head === undefined) return undefined;
    const names = [head.name];
    let hasError = false;
    for (;;) {
      const kind = peek();
      if (kind === k.K_DOT) {
        next();
        const segment = peek();
        if (segment !== k.K_IDENTIFIER && !k.isKeyword(segment)) {
          expected("a field name");
          hasError = true;
          break;
        }
        names.push(image(next()));
      } else if (kind === k.K_BRACKETS) {
        next();
        names.push("[]");
      } else {
        break;
      }
    }
    const path = b.fieldPath(fitted(names), start(first), end(pos - 1));
    return hasError ? { ...path, hasError: true } : path;
  };

  // fieldPath ("," fieldPath)*; `ok` is false when a path is missing or broken.
  const pathList = (): { paths: FieldPath[]; ok: boolean } => {
    const paths: FieldPath[] = [];
    let ok = true;
    for (;;) {
      const path = fieldPath();
      if (path === undefined) return { paths: fitted(paths), ok: false };
      paths.push(path);
      if (path.hasError) ok = false;
      if (!at(k.K_COMMA)) return { paths: fitted(paths), ok };
      next();
    }
  };

  // requireDecl = "require" fieldPath ("," fieldPath)*
  const requireDecl = (): RequireDecl => {
    const first = next();
    const { paths, ok } = pathList();
    const range = span(first, pos - 1);
    return ok ? { kind: "Require", paths, range } : { kind: "Require", paths, hasError: true, range };
  };

  /**
   * `item* "}"` (the `{` is read): parses items with `item` and skips what no item starts, up to
   * the block's recovery set. Returns the items in source order.
   */
  const block = <T extends object>(spec: BlockSpec, item: (kind: number) => T | undefined): T[] => {
    // Most blocks of a large graph hold one item (`{ max_rounds 3 }`): it is kept aside and
    // returned in an array of one, so no array is grown by `push` only to be copied by `fitted`.
    let only: T | undefined;
    let items: T[] | undefined;
    const read = (): T[] => (items !== undefined ? fitted(items) : only === undefined ? [] : [only]);
    for (;;) {
      const kind = peek();
      if (spec.starts[kind] === 1) {
        const parsed = item(kind);
        if (parsed === undefined) continue;
        if (items !== undefined) items.push(parsed);
        else if (only === undefined) only = parsed;
        else items = [only, parsed];
        continue;
      }
      if (kind === k.K_RCURLY) {
        next();
        return read();
      }
      expected(spec.expected);
      if (kind < 0 || spec.outer[kind] === 1) return read();
      skipToRecoverySet(spec);
    }
  };

  /** Skips tokens (a balanced `{ ... }` as one) until one the block can go on with. */
  const skipToRecoverySet = (spec: BlockSpec): void => {
    let depth = 0;
    while (pos < count) {
      const kind = kinds[pos] as number;
      if (depth === 0 && (spec.starts[kind] === 1 || spec.outer[kind] === 1 || kind === k.K_RCURLY)) return;
      if (kind === k.K_LCURLY) depth++;
      else if (kind === k.K_RCURLY) depth--;
      pos++;
    }
  };

  // terminalDecl = "terminal" ID outcome? STRING?
  const terminalDecl = (): MaybeIncomplete<TerminalDecl> => {
    const first = next();
    const terminalName = name();
    if (terminalName === undefined) return { kind: "Terminal", name: undefined, outcome: undefined, description: undefined, hasError: true, range: span(first, first) };
    const outcome = OUTCOME_KINDS[peek()] === 1 ? keyword<Outcome>(next()) : undefined;
    const kind = peek();
    const description = kind === k.K_STRING || kind === k.K_MALFORMED_STRING ? next() : -1;
    return {
      kind: "Terminal",
      name: terminalName,
      ...(outcome === undefined ? {} : { outcome }),
      ...(description < 0 ? {} : { description: b.string(image(description), start(description), end(description)) }),
      range: span(first, pos - 1),
    };
  };

  // stringDecl = KEYWORD STRING (`version "1.0.0"`, `effect "moves money"`)
  const stringDecl = <K extends string>(kind: K): MaybeIncomplete<{ kind: K; value: StringLiteral; range: Range }> => {
    const first = next();
    const value = valueToken(k.K_STRING, k.K_MALFORMED_STRING, "a string");
    if (value < 0) return { kind, value: undefined, hasError: true, range: span(first, first) };
    return { kind, value: b.string(image(value), start(value), end(value)), range: span(first, value) };
  };

  // flagDecl = KEYWORD (`gate`)
  const flagDecl = <K extends string>(kind: K): { kind: K; range: Range } => {
    const first = next();
    return { kind, range: span(first, first) };
  };

  // joinDecl = "join" (joinWait | INT) "of" ID ("," ID)* ("within" INT "seconds")? ("otherwise" ("escalate" | ID))?
  const joinDecl = (): JoinDecl => {
    const first = next();
    const broken = (): JoinDecl => ({ kind: "Join", wait: { kind: "Keyword", value: "all", range: span(first, first) }, inputs: [], hasError: true, range: span(first, pos - 1) });
    let ok = true;
    let wait: JoinDecl["wait"] | undefined;
    if (JOIN_WAIT_KINDS[peek()] === 1) {
      wait = keyword<JoinWait>(next());
    } else if (INTEGER_KINDS[peek()] === 1) {
      const token = next();
      wait = b.integer(image(token), start(token), end(token), "join");
      if (wait === undefined) ok = false;
    } else {
      expected(EXPECTED_JOIN_WAIT);
      return broken();
    }
    if (!at(KW_OF)) {
      expected("'of'");
      return broken();
    }
    next();
    const inputs: Identifier[] = [];
    for (;;) {
      const input = name();
      if (input === undefined) return broken();
      inputs.push(input);
      if (!at(k.K_COMMA)) break;
      next();
    }
    let within: IntegerLiteral | undefined;
    if (at(KW_WITHIN)) {
      next();
      const token = integerToken("a number of seconds");
      if (token < 0) return broken();
      within = b.integer(image(token), start(token), end(token), "within");
      if (within === undefined) ok = false;
      if (!at(KW_SECONDS)) {
        expected("'seconds'");
        return broken();
      }
      next();
    }
    let otherwise: JoinDecl["otherwise"];
    if (at(KW_OTHERWISE)) {
      next();
      if (at(KW_ESCALATE)) otherwise = keyword<"escalate">(next());
      else {
        otherwise = name();
        if (otherwise === undefined) return broken();
      }
    }
    const range = span(first, pos - 1);
    const join: JoinDecl = {
      kind: "Join",
      wait: wait ?? { kind: "Keyword", value: "all", range: span(first, first) },
      inputs,
      ...(within === undefined ? {} : { within }),
      ...(otherwise === undefined ? {} : { otherwise }),
      range,
    };
    return ok && wait !== undefined ? join : { ...join, hasError: true };
  };

  // agentItem: one setting of `core/settings.ts`, parsed by the shape of its value.
  const agentItem = (kind: number): MaybeIncomplete<AgentItem> => {
    const spec = AGENT_SETTING_OF.get(kind) as (typeof AGENT_SETTINGS)[number];
    switch (spec.value) {
      case "terminal":
        return terminalDecl();
      case "string":
        return stringDecl(spec.node) as MaybeIncomplete<AgentItem>;
      case "flag":
        return flagDecl(spec.node);
      case "join":
        return joinDecl();
    }
  };

  // agentDecl = "agent" ID ":" role ("{" agentItem* "}")?
  const agentDecl = (): MaybeIncomplete<AgentDecl> => {
    const first = next();
    const agentName = name();
    const colon = agentName !== undefined && expectToken(k.K_COLON, "':'", ROLE_KINDS);
    const role = colon ? oneOf<Role>(ROLE_KINDS, EXPECTED_ROLE) : undefined;
    const items = at(k.K_LCURLY) && next() >= 0 ? block(AGENT_BLOCK, agentItem) : NO_ITEMS;
    const range = span(first, pos - 1);
    if (agentName === undefined || role === undefined) return { kind: "Agent", name: agentName, role, items, hasError: true, range };
    return { kind: "Agent", name: agentName, role, items, range };
  };

  // contractDecl = "contract" edgeKind "{" requireDecl* "}"
  const contractDecl = (): MaybeIncomplete<ContractDecl> => {
    const first = next();
    const edgeKind = oneOf<EdgeKind>(EDGE_KIND_KINDS, EXPECTED_EDGE_KIND);
    const open = edgeKind !== undefined && expectToken(k.K_LCURLY, "'{'", CONTRACT_ITEM_STARTS);
    const requires = open || (at(k.K_LCURLY) && next() >= 0) ? block(CONTRACT_BLOCK, requireDecl) : [];
    const range = span(first, pos - 1);
    if (edgeKind === undefined || !open || requires.some((r) => r.hasError)) {
      return { kind: "Contract", edgeKind, requires, hasError: true, range };
    }
    return { kind: "Contract", edgeKind, requires, range };
  };

  // countDecl = KEYWORD INT (`max_rounds 2`, `repairs 1`)
  const countDecl = <K extends string>(kind: K, setting: IntegerSetting): MaybeIncomplete<{ kind: K; value: IntegerLiteral; range: Range }> => {
    const first = next();
    const token = integerToken("an integer");
    if (token < 0) return { kind, value: undefined, hasError: true, range: span(first, first) };
    const value = b.integer(image(token), start(token), end(token), setting);
    return value === undefined ? { kind, value, hasError: true, range: span(first, token) } : { kind, value, range: span(first, token) };
  };

  /** A number from 0 to 1 (see {@link NUMBER_KINDS}), or undefined (reported). */
  const fraction = (what: string): ReturnType<typeof b.fraction> | null => {
    if (NUMBER_KINDS[peek()] !== 1) {
      expected("a number from 0 to 1");
      return null;
    }
    const token = next();
    return b.fraction(image(token), start(token), end(token), what);
  };

  // minConfidenceDecl = "min_confidence" NUMBER ("for" ID ("," ID)*)?
  const minConfidenceDecl = (): MaybeIncomplete<MinConfidenceDecl> => {
    const first = next();
    const value = fraction("min_confidence");
    if (value === null) return { kind: "MinConfidence", value: undefined, decisions: [], hasError: true, range: span(first, first) };
    const decisions: Identifier[] = [];
    let ok = value !== undefined;
    if (at(KW_FOR)) {
      next();
      for (;;) {
        const decision = name();
        if (decision === undefined) {
          ok = false;
          break;
        }
        decisions.push(decision);
        if (!at(k.K_COMMA)) break;
        next();
      }
    }
    const range = span(first, pos - 1);
    return ok && value !== undefined
      ? { kind: "MinConfidence", value, decisions, range }
      : { kind: "MinConfidence", value, decisions, hasError: true, range };
  };

  // nameDecl = KEYWORD ID (`fan_out research`)
  const nameDecl = <K extends string>(kind: K): MaybeIncomplete<{ kind: K; name: Identifier; range: Range }> => {
    const first = next();
    const value = name();
    if (value === undefined) return { kind, name: undefined, hasError: true, range: span(first, first) };
    return { kind, name: value, range: span(first, pos - 1) };
  };

  // edgeItem: one setting of `core/settings.ts`, parsed by the shape of its value.
  const edgeItem = (kind: number): EdgeItem => {
    const spec = EDGE_SETTING_OF.get(kind) as (typeof EDGE_SETTINGS)[number];
    switch (spec.value) {
      case "paths":
        return requireDecl();
      case "count":
        return countDecl(spec.node, spec.keyword) as EdgeItem;
      case "floor":
        return minConfidenceDecl();
      case "flag":
        return flagDecl(spec.node);
      case "name":
        return nameDecl(spec.node);
    }
  };

  /** A value of a guard's `is` list: a name, keywords included (`status is failed`). */
  const guardValue = (): Identifier | undefined => {
    const kind = peek();
    if (kind === k.K_IDENTIFIER || k.isKeyword(kind)) return identifier(next());
    expected("a value");
    return undefined;
  };

  /** Reports a test that does not fit its subject, or a value outside the subject's domain (literal errors: the grammar accepts them). */
  const checkCondition = (condition: Condition): void => {
    const subject = condition.subject.name;
    const spec = (GUARD_SUBJECTS as Record<string, (typeof GUARD_SUBJECTS)[GuardSubject]>)[subject];
    if (spec === undefined) {
      pushError("literal", condition.subject.range, `a guard tests ${listAlternatives(GUARD_SUBJECT_NAMES.map(quote))}, not '${subject}'`);
    } else if (spec.test === "compare" && condition.test === "is") {
      pushError("literal", condition.range, `${subject} is compared with a number, e.g. '${subject} >= 0.8', not listed with 'is'`);
    } else if (spec.test === "is" && condition.test === "compare") {
      pushError("literal", condition.range, `${subject} is tested with 'is' and its values, e.g. '${subject} is ${spec.values?.[0] ?? "review"}', not compared`);
    } else if (condition.test === "is" && spec.values !== undefined) {
      const domain: readonly string[] = spec.values;
      for (const value of condition.values) {
        if (!domain.includes(value.name)) pushError("literal", value.range, `'${value.name}' is no ${subject}: ${subject} is ${listAlternatives(domain.map(quote))}`);
      }
    }
  };

  // condition = ID ("is" NAME ("," NAME)* | COMPARISON NUMBER). `usable` is false when its number
  // was reported (the condition is kept, with a NaN value, so the tree has every node read).
  let usable = true;
  const condition = (): Condition | undefined => {
    const first = pos;
    if (peek() !== k.K_IDENTIFIER) {
      expected(EXPECTED_SUBJECT);
      return undefined;
    }
    const subject = identifier(next());
    let parsed: Condition | undefined;
    if (at(KW_IS)) {
      next();
      const values: Identifier[] = [];
      for (;;) {
        const value = guardValue();
        if (value === undefined) return undefined;
        values.push(value);
        if (!at(k.K_COMMA)) break;
        next();
      }
      parsed = { kind: "Condition", subject, test: "is", values, range: span(first, pos - 1) };
    } else if (at(k.K_COMPARISON)) {
      const operator = keyword<ComparisonOperator>(next());
      const token = pos;
      const number = fraction(subject.name);
      if (number === null) return undefined;
      if (number === undefined) usable = false;
      const read = number ?? { kind: "NumberLiteral", value: Number.NaN, text: image(token), range: span(token, token) };
      parsed = { kind: "Condition", subject, test: "compare", operator, number: read, range: span(first, pos - 1) };
    } else {
      expected("'is' or a comparison such as '>='");
      return undefined;
    }
    checkCondition(parsed);
    return parsed;
  };

  // guard = "otherwise" | "when" condition ("and" condition)*
  const guardDecl = (): GuardDecl => {
    const first = next();
    if (kinds[first] === KW_OTHERWISE) return { kind: "Guard", otherwise: true, conditions: [], range: span(first, first) };
    const conditions: Condition[] = [];
    usable = true;
    for (;;) {
      const parsed = condition();
      if (parsed === undefined) return { kind: "Guard", otherwise: false, conditions, hasError: true, range: span(first, Math.max(first, pos - 1)) };
      conditions.push(parsed);
      if (!at(KW_AND)) break;
      next();
    }
    const range = span(first, pos - 1);
    return usable ? { kind: "Guard", otherwise: false, conditions, range } : { kind: "Guard", otherwise: false, conditions, hasError: true, range };
  };

  // edgeDecl = edgeKind ID "->" ID guard? "observe"? ("{" edgeItem* "}")?
  const edgeDecl = (): MaybeIncomplete<EdgeDecl> => {
    const first = pos;
    const edgeKind = keyword<EdgeKind>(next());
    const from = name();
    const arrow = from !== undefined && expectToken(k.K_ARROW, "'->'", IDENTIFIER_ONLY);
    const to = arrow ? name() : undefined;
    const guard = to !== undefined && (at(KW_WHEN) || at(KW_OTHERWISE)) ? guardDecl() : undefined;
    const observe = to !== undefined && at(KW_OBSERVE) ? next() : -1;
    const items = at(k.K_LCURLY) && next() >= 0 ? block(EDGE_BLOCK, edgeItem) : NO_ITEMS;
    const range = span(first, pos - 1);
    if (from === undefined || to === undefined) {
      return { kind: "Edge", edgeKind, from, to, observe: undefined, items, hasError: true, range };
    }
    // Literals rather than a spread: this is the most frequent node of a large graph.
    const edge: EdgeDecl =
      observe < 0
        ? { kind: "Edge", edgeKind, from, to, items, range }
        : { kind: "Edge", edgeKind, from, to, observe: span(observe, observe), items, range };
    return guard === undefined ? edge : { ...edge, guard };
  };

  // entryDecl = "entry" ID ("," ID)*
  const entryDecl = (): EntryDecl => {
    const first = next();
    const agents: Identifier[] = [];
    let ok = true;
    for (;;) {
      const agent = name();
      if (agent === undefined) {
        ok = false;
        break;
      }
      agents.push(agent);
      if (!at(k.K_COMMA)) break;
      next();
    }
    const range = span(first, pos - 1);
    return ok ? { kind: "Entry", agents, range } : { kind: "Entry", agents, hasError: true, range };
  };

  // loopSignatureDecl = "loop_signature" fieldPath ("," fieldPath)*
  const loopSignatureDecl = (): LoopSignatureDecl => {
    const first = next();
    const { paths, ok } = pathList();
    const range = span(first, pos - 1);
    return ok ? { kind: "LoopSignature", paths, range } : { kind: "LoopSignature", paths, hasError: true, range };
  };

  const graphItem = (kind: number): MaybeIncomplete<GraphItem> => {
    // Edges first: they are most of the items of a large graph.
    if (EDGE_KIND_KINDS[kind] === 1) return edgeDecl();
    const first = pos;
    switch (kind) {
      case KW_ENVELOPE: {
        next();
        const token = valueToken(k.K_VERSION_NUMBER, k.K_LONG_VERSION, "a version such as 1.3");
        if (token < 0) return { kind: "Envelope", version: undefined, hasError: true, range: span(first, first) };
        const version = b.version(image(token), start(token), end(token));
        return version === undefined
          ? { kind: "Envelope", version, hasError: true, range: span(first, token) }
          : { kind: "Envelope", version, range: span(first, token) };
      }
      case KW_ENTRY:
        return entryDecl();
      case KW_HOP_LIMIT: {
        next();
        if (at(KW_AUTO)) return { kind: "HopLimit", value: keyword<"auto">(pos), range: span(first, next()) };
        const token = integerToken("an integer or 'auto'");
        if (token < 0) return { kind: "HopLimit", value: undefined, hasError: true, range: span(first, first) };
        const value = b.integer(image(token), start(token), end(token), "hop_limit");
        return value === undefined
          ? { kind: "HopLimit", value, hasError: true, range: span(first, token) }
          : { kind: "HopLimit", value, range: span(first, token) };
      }
      case KW_ON_HOP_LIMIT: {
        next();
        const action = oneOf<HopLimitAction>(ACTION_KINDS, EXPECTED_ACTION);
        return action === undefined
          ? { kind: "OnHopLimit", action, hasError: true, range: span(first, first) }
          : { kind: "OnHopLimit", action, range: span(first, pos - 1) };
      }
      case KW_LOOP_SIGNATURE:
        return loopSignatureDecl();
      case KW_AGENT:
        return agentDecl();
      default:
        return contractDecl();
    }
  };

  // graph = "graph" ID "{" graphItem* "}"
  const graph = (): MaybeIncomplete<GraphDecl> => {
    const first = next();
    const graphName = name();
    const open = expectToken(k.K_LCURLY, "'{'", GRAPH_ITEM_STARTS);
    const items = open || (at(k.K_LCURLY) && next() >= 0) ? block(GRAPH_BLOCK, graphItem) : [];
    const range = span(first, pos - 1);
    if (graphName === undefined) return { kind: "Graph", name: undefined, items, hasError: true, range };
    return { kind: "Graph", name: graphName, items, range };
  };

  // languageVersion = "seam" INT
  const languageVersion = (): MaybeIncomplete<LanguageVersionDecl> => {
    const first = next();
    const token = integerToken("an integer");
    if (token < 0) return { kind: "LanguageVersion", value: undefined, hasError: true, range: span(first, first) };
    const value = b.integer(image(token), start(token), end(token), "seam");
    if (value === undefined) return { kind: "LanguageVersion", value, hasError: true, range: span(first, token) };
    if (value.value !== LANGUAGE_VERSION) pushError("literal", value.range, unknownLanguageVersion(value.value));
    return { kind: "LanguageVersion", value, range: span(first, token) };
  };

  // file = languageVersion? graph+
  const file = (): Pick<SeamFile, "languageVersion" | "graphs"> => {
    const version = at(KW_SEAM) ? languageVersion() : undefined;
    const graphs: MaybeIncomplete<GraphDecl>[] = [];
    for (;;) {
      if (at(KW_GRAPH)) {
        graphs.push(graph());
        continue;
      }
      if (pos >= count && graphs.length > 0) break;
      if (graphs.length === 0) expected("'graph'");
      else if (!recovering) {
        // After the last graph only another graph may follow; the message names no previous token.
        recovering = true;
        pushError("parse", span(pos, pos), `expected 'graph' or end of file, found '${image(pos)}'`);
      }
      if (pos >= count) break;
      while (pos < count && kinds[pos] !== KW_GRAPH) pos++;
    }
    return version === undefined ? { graphs } : { languageVersion: version, graphs };
  };

  const comments = scanned.comments.map(([from, to]): Comment => ({
    kind: "Comment",
    style: text.charCodeAt(from + 1) === 47 /* / */ ? "line" : "block",
    text: text.slice(from, to),
    range: { start: from, end: to },
  }));
  const whole = { start: 0, end: text.length };
  try {
    return { ast: { kind: "File", ...file(), comments, range: whole }, errors };
  } catch (error) {
    if (error !== LIMIT_REACHED) throw error;
    return { ast: { kind: "File", graphs: [], comments, range: whole }, errors };
  }
}

const IDENTIFIER_ONLY: KindSet = kindTable([k.K_IDENTIFIER]);
