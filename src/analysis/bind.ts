/**
 * Name resolution: one `graph` block of the AST -> the declared agents, edges, entries and
 * settings, with names resolved and defaults applied (docs/language.md). Declarations the
 * parser could not complete (`hasError`) are left out: their syntax error says what to fix. Binding
 * reports nothing: where a name is declared twice the first declaration wins, a setting written
 * twice takes its first value, and an edge naming an unknown agent is left out; binding records
 * what it dropped, and the rules (`duplicate-*`, `unknown-agent`...) report it.
 *
 * Binding is the only pass that walks the graph's items: it also sorts them by kind
 * ({@link GraphItems}) so that no rule walks a 10^5-agent AST again (each walk costs tens of ms
 * there, mostly cache misses).
 */
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
  HopLimitAction,
  HopLimitDecl,
  LoopSignatureDecl,
  GuardDecl,
  MaxRoundsDecl,
  MinConfidenceDecl,
  FanOutDecl,
  JoinDecl,
  RepairsDecl,
  OnHopLimitDecl,
  Outcome,
  Role,
  TerminalDecl,
} from "../parser/ast.js";
import type { Range } from "../core/source-file.js";
import { DEFAULT_ENVELOPE_VERSION, ENVELOPE_VERSION, envelopeFieldSince } from "../core/envelope-schema.js";
import { assertNever, DEFAULT_CONTRACTS, DEFAULT_ON_HOP_LIMIT, DEFAULT_OUTCOME, EDGE_KINDS } from "../core/vocabulary.js";
import { COUNT_SETTINGS, settingOfNode, type CountSettingNode } from "../core/settings.js";
import { GUARD_SUBJECTS, type GuardSubject } from "../core/vocabulary.js";
import { firstOccurrences } from "./graph/pairs.js";
import type { CheckedCondition, CheckedFloor, CheckedGuard, CheckedJoin, CheckedTerminal } from "./model.js";

export { DEFAULT_CONTRACTS, DEFAULT_ON_HOP_LIMIT, EDGE_KINDS };

/** The envelope field of an approval record, and the minor version that added it. */
const APPROVAL_FIELD = "approval";
const APPROVAL_SINCE = envelopeFieldSince(APPROVAL_FIELD) as number;

/** The one empty list that binding shares wherever a list has nothing (frozen: it is never written). */
const NONE: readonly never[] = Object.freeze([]);

/** Fields hashed by `loopSignature` when no `loop_signature` line is written (docs/language.md). */
export const DEFAULT_LOOP_SIGNATURE: readonly string[] = ["goal.statement", "decisions[].statement"];

/**
 * Index of `kind` in {@link EDGE_KINDS} (the `kind` codes of {@link BoundGraph.edgeKind}). An edge
 * kind outside the vocabulary throws: it is a bug in Seam, never mapped to some other kind.
 */
function kindCode(kind: EdgeKind): number {
  const code = EDGE_KINDS.indexOf(kind);
  if (code < 0) throw new Error(`internal: unknown edge kind '${String(kind)}'`);
  return code;
}

/** An agent after binding (the first declaration of its id). */
export interface BoundAgent {
  readonly id: string;
  readonly role: Role;
  /** The first `version` line's value. */
  readonly version?: string;
  /** A `gate` line is written. */
  readonly gate?: true;
  /** The first `effect` line's value. */
  readonly effect?: string;
  /** The first `join` line. */
  readonly join?: CheckedJoin;
  /** Terminals by first declaration of each id, in source order. */
  readonly terminals: readonly CheckedTerminal[];
  readonly decl: AgentDecl;
}

/** A graph-level setting line (everything but agents and edges). */
export type SettingDecl = EnvelopeDecl | EntryDecl | HopLimitDecl | OnHopLimitDecl | LoopSignatureDecl | ContractDecl;

/** The items of a graph block sorted by kind, each list in source order, duplicates included. */
export interface GraphItems {
  readonly agents: readonly AgentDecl[];
  readonly edges: readonly EdgeDecl[];
  readonly settings: readonly SettingDecl[];
  /** Every line of each count setting (`max_rounds`, `repairs`), with the position of its edge in `edges`. */
  readonly counts: Readonly<Record<CountSettingNode, readonly { readonly edge: number; readonly item: MaxRoundsDecl | RepairsDecl }[]>>;
  /** Every `min_confidence` line of an edge, with the position of its edge in `edges`. */
  readonly floors: readonly { readonly edge: number; readonly item: MinConfidenceDecl }[];
  /** Every `gate` line of an edge, with the position of its edge in `edges`. */
  readonly gates: readonly { readonly edge: number; readonly range: Range }[];
  /** Every `fan_out` line of an edge, with the position of its edge in `edges`. */
  readonly fanOuts: readonly { readonly edge: number; readonly item: FanOutDecl }[];
  /** Every path of an edge's `require` lines, with the position of its edge in `edges`. */
  readonly requirePaths: readonly { readonly edge: number; readonly path: FieldPath }[];
  /**
   * For each edge of `edges`, a name id of its source and target: the agent index for a declared
   * agent, `agents.length` and up for undeclared names (one id per distinct name).
   */
  readonly edgeFromName: Int32Array;
  readonly edgeToName: Int32Array;
}

/** A declaration binding dropped because an earlier one of the same name wins. */
export interface Shadowed<T> {
  readonly decl: T;
  readonly first: T;
}

/** A setting written a second time where only one value can hold (`duplicate-setting`). */
export interface RepeatedSetting {
  /** The setting as written: `hop_limit`, `contract transfer`, `version`, `max_rounds`... */
  readonly label: string;
  /** Where it is set: the graph, an agent or an edge. */
  readonly owner: GraphDecl | AgentDecl | EdgeDecl;
  readonly range: Range;
  readonly firstRange: Range;
}

/** What binding dropped as declared twice, in source order. */
export interface Dropped {
  readonly agents: readonly Shadowed<AgentDecl>[];
  /** Edges with the same kind and endpoint names as an earlier one (declared or not). */
  readonly edges: readonly Shadowed<EdgeDecl>[];
  /** Terminal ids repeated within one agent declaration. */
  readonly terminals: readonly (Shadowed<TerminalDecl> & { readonly agent: AgentDecl })[];
  readonly settings: readonly RepeatedSetting[];
}

/** One graph after name resolution. */
export interface BoundGraph {
  readonly name: string;
  readonly decl: GraphDecl;
  readonly items: GraphItems;
  readonly dropped: Dropped;
  readonly agents: readonly BoundAgent[];
  /** Agent id -> position in `agents`. */
  readonly agentIndex: ReadonlyMap<string, number>;
  /**
   * The bound edges: the first declaration of each (kind, from, to) whose ends are both declared,
   * in source order. Edge `i` is column position `i` below and `CheckedGraph.edges[i]`. Columns,
   * not one object per edge: the checked model makes those objects once, and the graph
   * algorithms read typed arrays.
   */
  readonly edgeDecl: readonly EdgeDecl[];
  /** Agent index of each bound edge's source. */
  readonly edgeFrom: Int32Array;
  /** Agent index of each bound edge's target. */
  readonly edgeTo: Int32Array;
  /** The first `max_rounds` value of each bound edge; `Infinity` when unbounded. */
  readonly edgeRounds: Float64Array;
  /** The first `repairs` value of each bound edge; -1 when it has none (the default applies). */
  readonly edgeRepairs: Int32Array;
  /** The guard of each bound edge (a sparse array: undefined where the edge has none). */
  readonly edgeGuard: readonly (CheckedGuard | undefined)[];
  /** The first `min_confidence` of each bound edge (sparse). */
  readonly edgeFloor: readonly (CheckedFloor | undefined)[];
  /** 1 where the bound edge has a `gate` line. */
  readonly edgeGate: Uint8Array;
  /** 1 where the bound edge is written with `observe`. */
  readonly edgeObserve: Uint8Array;
  /** The first `fan_out` name of each bound edge (sparse). */
  readonly edgeFanOut: readonly (string | undefined)[];
  /** Kind of each bound edge, as an index into {@link EDGE_KINDS}. */
  readonly edgeKind: Uint8Array;
  /** Effective required paths of each bound edge: its kind's contract plus its own, deduplicated and sorted. */
  readonly edgeRequire: readonly (readonly string[])[];
  /** Known entry agents in source order, deduplicated, as agent indices. */
  readonly entries: readonly number[];
  /** Whether any `entry` line was written (even one naming only unknown agents). */
  readonly hasEntryLine: boolean;
  /**
   * Declared agents with an edge to an undeclared one (`unknown-agent` reports it). What lies
   * behind such an edge is unknown, so trap analysis gives these agents the benefit of the doubt
   * instead of piling a second error onto a typo.
   */
  readonly danglingFrom: readonly number[];
  readonly envelope: { readonly major: number; readonly minor: number };
  /** The first `hop_limit` line, if any. */
  readonly hopLimit?: HopLimitDecl;
  readonly onHopLimit: HopLimitAction;
  readonly loopSignature: readonly string[];
  readonly contracts: Readonly<Record<EdgeKind, readonly string[]>>;
}

/**
 * Resolves the names of one graph block; never throws. What a typed name cannot change (the
 * sorted items, each edge's settings, a bound agent while its name stays) is kept per tree node,
 * in WeakMaps keyed by node identity, for the next check of the same tree. So a caller may
 * change a tree in place only as `program/name-edit.ts` does (an agent's name, an edge's ends,
 * which the agent and end-name caches compare) or as a move does (ranges); any other change in
 * place (a setting's value, an item added) needs a new tree, as a parse gives.
 */
export function bindGraph(decl: GraphDecl): BoundGraph {
  let sorted = sortedItems.get(decl);
  if (sorted === undefined) {
    sorted = sortItems(decl);
    sortedItems.set(decl, sorted);
  }
  const repeated: RepeatedSetting[] = [];
  const graphSettings = new Map<string, Range>();
  const noteSetting = (label: string, range: Range): void => {
    const first = graphSettings.get(label);
    if (first === undefined) graphSettings.set(label, range);
    else repeated.push({ label, owner: decl, range, firstRange: first });
  };

  const agents: BoundAgent[] = [];
  const agentIndex = new Map<string, number>();
  const droppedAgents: Shadowed<AgentDecl>[] = [];
  const droppedTerminals: Dropped["terminals"][number][] = [];
  // Index loops here and below: see docs/performance.md, "Loops over a large graph".
  for (let a = 0; a < sorted.agents.length; a++) {
    const agent = sorted.agents[a] as AgentDecl;
    const bound = boundAgentOf(agent, droppedTerminals, repeated);
    const earlier = agentIndex.get(agent.name.name);
    if (earlier === undefined) {
      agentIndex.set(agent.name.name, agents.length);
      agents.push(bound);
    } else {
      droppedAgents.push({ decl: agent, first: (agents[earlier] as BoundAgent).decl });
    }
  }

  let envelope: EnvelopeDecl | undefined;
  let hopLimit: HopLimitDecl | undefined;
  let onHopLimit: HopLimitAction | undefined;
  let loopSignature: readonly string[] | undefined;
  const contracts: Partial<Record<EdgeKind, readonly string[]>> = {};
  const entryNames: string[] = [];
  for (const item of sorted.settings) {
    switch (item.kind) {
      case "Envelope":
        envelope ??= item;
        noteSetting("envelope", item.range);
        break;
      case "HopLimit":
        hopLimit ??= item;
        noteSetting("hop_limit", item.range);
        break;
      case "OnHopLimit":
        onHopLimit ??= item.action.value;
        noteSetting("on_hop_limit", item.range);
        break;
      case "LoopSignature":
        loopSignature ??= item.paths.map((p) => p.text);
        noteSetting("loop_signature", item.range);
        break;
      case "Contract":
        contracts[item.edgeKind.value] ??= item.requires.flatMap((r) => r.paths.map((p) => p.text));
        noteSetting(`contract ${item.edgeKind.value}`, item.range);
        break;
      case "Entry":
        for (const agent of item.agents) entryNames.push(agent.name);
        break;
      default:
        assertNever(item, "graph setting");
    }
  }
  const minor = envelope?.version.major === ENVELOPE_VERSION.major ? envelope.version.minor : DEFAULT_ENVELOPE_VERSION.minor;
  const inVersion = (paths: readonly string[]): readonly string[] =>
    paths.filter((path) => (envelopeFieldSince(path.split(/[.[]/)[0] as string) ?? 0) <= minor);
  const effectiveContracts = Object.fromEntries(
    EDGE_KINDS.map((kind) => [kind, contracts[kind] ?? inVersion(DEFAULT_CONTRACTS[kind])]),
  ) as Record<EdgeKind, readonly string[]>;

  const approval = minor >= APPROVAL_SINCE;
  let lines = edgeLinesOf.get(decl);
  if (lines === undefined) {
    lines = readEdgeLines(sorted, effectiveContracts, approval);
    edgeLinesOf.set(decl, lines);
  }
  const { edgeFromName, edgeToName } = nameEdgeEnds(decl, sorted.edges, agentIndex);
  // A literal, not a spread: rules read these fields in loops over 10^5 edges, and a spread
  // object may get a slower dictionary shape.
  const { agents: agentDecls, edges: edgeDecls, settings: settingDecls, counts, floors, gates, fanOuts, requirePaths } = sorted;
  const items: GraphItems = { agents: agentDecls, edges: edgeDecls, settings: settingDecls, counts, floors, gates, fanOuts, requirePaths, edgeFromName, edgeToName };
  const { declKinds } = lines;
  const first = firstOccurrences(nameCount(agents.length, edgeFromName, edgeToName), EDGE_KINDS.length, declKinds, edgeFromName, edgeToName);
  const droppedEdges: Shadowed<EdgeDecl>[] = [];
  const danglingFrom: number[] = [];
  const kept: number[] = [];
  for (let i = 0; i < items.edges.length; i++) {
    const fromIndex = edgeFromName[i] as number;
    const toIndex = edgeToName[i] as number;
    if (first[i] !== i) {
      droppedEdges.push({ decl: items.edges[i] as EdgeDecl, first: items.edges[first[i] as number] as EdgeDecl });
    } else if (fromIndex < agents.length && toIndex < agents.length) {
      kept.push(i);
    } else if (fromIndex < agents.length) {
      danglingFrom.push(fromIndex);
    }
  }
  const entries: number[] = [];
  for (const name of entryNames) {
    const index = agentIndex.get(name);
    if (index !== undefined && !entries.includes(index)) entries.push(index);
  }

  return {
    name: decl.name.name,
    decl,
    items,
    dropped: { agents: droppedAgents, edges: droppedEdges, terminals: droppedTerminals, settings: repeated },
    agents,
    agentIndex,
    ...edgeColumns(items, lines, kept, repeated, approval ? agents : undefined),
    entries,
    hasEntryLine: items.settings.some((s) => s.kind === "Entry"),
    danglingFrom,
    envelope: envelope
      ? { major: envelope.version.major, minor: envelope.version.minor }
      : { major: DEFAULT_ENVELOPE_VERSION.major, minor: DEFAULT_ENVELOPE_VERSION.minor },
    ...(hopLimit ? { hopLimit } : {}),
    onHopLimit: onHopLimit ?? DEFAULT_ON_HOP_LIMIT,
    loopSignature: loopSignature ?? DEFAULT_LOOP_SIGNATURE,
    contracts: effectiveContracts,
  };
}

/**
 * The columns of the bound edges (`kept`: their positions in `items.edges`): copies of the
 * {@link EdgeLines} columns at those positions, but for the edges whose source agent has a gate,
 * which require the approval record where the envelope has one. Typed arrays are filled by a
 * loop: `TypedArray.from` with a mapping function took ~0.15 s per column at 4 * 10^5 edges when
 * measured.
 */
function edgeColumns(
  items: GraphItems,
  lines: EdgeLines,
  kept: readonly number[],
  repeated: RepeatedSetting[],
  /** The agents, where the envelope version has approval records (gated edges then require one). */
  gated: readonly BoundAgent[] | undefined,
): Pick<
  BoundGraph,
  "edgeDecl" | "edgeFrom" | "edgeTo" | "edgeRounds" | "edgeRepairs" | "edgeKind" | "edgeRequire" | "edgeGuard" | "edgeFloor" | "edgeGate" | "edgeObserve" | "edgeFanOut"
> {
  const { declKinds, rounds, repairs, floors, gates, observe, fanOuts, own, guards, require } = lines;
  for (let k = 0; k < lines.repeated.length; k++) repeated.push(lines.repeated[k] as RepeatedSetting);
  const m = kept.length;
  const edgeDecl = new Array<EdgeDecl>(m);
  const edgeFrom = new Int32Array(m);
  const edgeTo = new Int32Array(m);
  const edgeRounds = new Float64Array(m);
  const edgeRepairs = new Int32Array(m);
  const edgeKind = new Uint8Array(m);
  const edgeRequire = new Array<readonly string[]>(m);
  const edgeGuard = sparseColumn(guards, m);
  const edgeFloor = sparseColumn(floors, m);
  const edgeGate = new Uint8Array(m);
  const edgeObserve = new Uint8Array(m);
  const edgeFanOut = sparseColumn(fanOuts, m);
  for (let e = 0; e < m; e++) {
    const i = kept[e] as number;
    edgeDecl[e] = items.edges[i] as EdgeDecl;
    edgeFrom[e] = items.edgeFromName[i] as number;
    edgeTo[e] = items.edgeToName[i] as number;
    edgeRounds[e] = rounds[i] as number;
    edgeRepairs[e] = repairs[i] as number;
    edgeKind[e] = declKinds[i] as number;
    edgeGate[e] = gates[i] as number;
    edgeObserve[e] = observe[i] as number;
    edgeRequire[e] = require[i] as readonly string[];
  }
  // The sparse columns by their few entries, as `kept` is ascending.
  fillSparse(edgeGuard as (CheckedGuard | undefined)[], guards, kept);
  fillSparse(edgeFloor as (CheckedFloor | undefined)[], floors, kept);
  fillSparse(edgeFanOut as (string | undefined)[], fanOuts, kept);
  if (gated !== undefined) {
    // Leaving a gated agent requires the approval record, as leaving a gated edge does (`require`).
    for (let e = 0; e < m; e++) {
      if (edgeGate[e] === 1 || (gated[edgeFrom[e] as number] as BoundAgent).gate !== true) continue;
      const i = kept[e] as number;
      const guard = guards[i];
      const paths = [...(own[i] ?? []), ...(guard === undefined ? [] : guardFields(guard)), APPROVAL_FIELD];
      edgeRequire[e] = lines.requireOf(EDGE_KINDS[edgeKind[e] as number] as EdgeKind, paths);
    }
  }
  return { edgeDecl, edgeFrom, edgeTo, edgeRounds, edgeRepairs, edgeKind, edgeRequire, edgeGuard, edgeFloor, edgeGate, edgeObserve, edgeFanOut };
}

/**
 * Copies the entries of `source`, a sparse column by position in `GraphItems.edges`, into
 * `column`, by bound edge, where `kept` (ascending) holds the position of each bound edge; a
 * column that is {@link NONE} (no entries) is left alone.
 */
function fillSparse<T>(column: (T | undefined)[], source: readonly (T | undefined)[], kept: readonly number[]): void {
  if (source.length === 0) return;
  let e = 0;
  // One walk over both, in O(edges); forEach skips the holes of a column made by assignment.
  source.forEach((value, i) => {
    while (e < kept.length && (kept[e] as number) < i) e++;
    if (value !== undefined && kept[e] === i) column[e] = value;
  });
}

/**
 * A sparse column of `length` bound edges for values read from `source`, a sparse array by
 * position in `GraphItems.edges`: the shared empty {@link NONE} when `source` holds nothing (most
 * graphs have no guard, floor or fan-out, and an empty array reads undefined at every index, as
 * the column would), else an array of holes for the caller to fill.
 */
function sparseColumn<T>(source: readonly (T | undefined)[], length: number): readonly (T | undefined)[] {
  return source.length === 0 ? NONE : new Array<T | undefined>(length);
}

/** A guard as the checked model holds it. */
function guardOf(decl: GuardDecl): CheckedGuard {
  const conditions = decl.conditions.map((c): CheckedCondition =>
    c.test === "is"
      ? { subject: c.subject.name as Exclude<GuardSubject, "confidence">, values: [...new Set(c.values.map((v) => v.name))] }
      : { subject: "confidence", operator: c.operator.value, value: c.number.value },
  );
  return { otherwise: decl.otherwise, conditions };
}

/** The fields a guard reads, which its edge therefore requires (`GUARD_SUBJECTS[...].requires`). */
function guardFields(guard: CheckedGuard): string[] {
  return guard.conditions.map((c) => GUARD_SUBJECTS[c.subject].requires);
}

function floorOf(item: MinConfidenceDecl): CheckedFloor {
  return { value: item.value.value, decisions: [...new Set(item.decisions.map((d) => d.name))].sort() };
}

/**
 * {@link sortItems} of each graph node bound so far. A language server binds the same node again
 * after a letter typed in a name (`src/program/name-edit.ts`), and the sort reads only what no
 * edit of a tree changes: which items it has, their kinds and their order (a tree's nodes are
 * never replaced; a carried check moves their ranges in place and a name edit changes a name).
 * Weak: a tree that is dropped takes its sort with it. The lists are never written after the sort.
 */
const sortedItems = new WeakMap<GraphDecl, Omit<GraphItems, "edgeFromName" | "edgeToName">>();

/**
 * What binding reads of each edge's own lines, by position in `GraphItems.edges`: none of it
 * depends on an agent's name, so, like {@link sortedItems}, it is read once per graph node and
 * reused when a letter typed in a name binds the node again (the edge lines' values and names
 * are never changed in place: `name-edit.ts` changes only agents' names and edges' ends). The
 * graph's settings, which the required paths read, are never changed in place either.
 * Columns over every edge, so that binding copies the bound edges' values out of them.
 */
interface EdgeLines {
  /** Kind of each edge, as an index into {@link EDGE_KINDS}. */
  readonly declKinds: Uint8Array;
  /** The first `max_rounds` value of each edge; `Infinity` when it has none. */
  readonly rounds: Float64Array;
  /** The first `repairs` value of each edge (at most 2^31 - 1); -1 when it has none. */
  readonly repairs: Int32Array;
  /** 1 where the edge has a `gate` line. */
  readonly gates: Uint8Array;
  /** 1 where the edge is written with `observe`. */
  readonly observe: Uint8Array;
  /** The first value of each edge's lines of each kind (sparse where an edge has none). */
  readonly floors: readonly (CheckedFloor | undefined)[];
  readonly fanOuts: readonly (string | undefined)[];
  /** Each edge's own `require` paths (sparse). */
  readonly own: readonly (string[] | undefined)[];
  /** Each edge's guard as the checked model holds it (sparse; none for a guard with a syntax error). */
  readonly guards: readonly (CheckedGuard | undefined)[];
  /**
   * Effective required paths of each edge when its source agent has no gate: its kind's
   * contract, its own paths, its guard's fields and, where the envelope has approval records and
   * the edge a `gate` line, the approval record.
   */
  readonly require: readonly (readonly string[])[];
  /** The shared effective required paths of a kind and extra paths (see {@link createRequireOf}). */
  readonly requireOf: (kind: EdgeKind, own: readonly string[] | undefined) => readonly string[];
  /** The edge lines written twice, in the order binding reports them. */
  readonly repeated: readonly RepeatedSetting[];
}

/**
 * {@link EdgeLines} of each graph node bound so far (weak, as {@link sortedItems}); never written
 * after it is made but for the arrays `requireOf` keeps, one per set of paths the tree's edges
 * can require, so as many as its edges at most.
 */
const edgeLinesOf = new WeakMap<GraphDecl, EdgeLines>();

/**
 * Reads the {@link EdgeLines} of a graph's sorted items, given the graph's effective contracts
 * and whether its envelope has approval records.
 */
function readEdgeLines(
  items: Omit<GraphItems, "edgeFromName" | "edgeToName">,
  contracts: Readonly<Record<EdgeKind, readonly string[]>>,
  approval: boolean,
): EdgeLines {
  const { edges } = items;
  const repeated: RepeatedSetting[] = [];
  const declKinds = new Uint8Array(edges.length);
  const observe = new Uint8Array(edges.length);
  // Made at the first guard: most graphs have none (see sparseColumn).
  let guards: (CheckedGuard | undefined)[] | undefined;
  for (let i = 0; i < edges.length; i++) {
    const edge = edges[i] as EdgeDecl;
    declKinds[i] = kindCode(edge.edgeKind.value);
    if (edge.observe !== undefined) observe[i] = 1;
    if (edge.guard !== undefined && !edge.guard.hasError) (guards ??= new Array<CheckedGuard | undefined>(edges.length))[i] = guardOf(edge.guard);
  }
  const counts = Object.fromEntries(
    COUNT_SETTINGS.map((spec) => [spec.node, firstValues(edges, items.counts[spec.node], spec.keyword, repeated, (item) => item.value.value)]),
  ) as Record<CountSettingNode, readonly (number | undefined)[]>;
  const floors = firstValues(edges, items.floors, "min_confidence", repeated, floorOf);
  const gateLines = firstValues(edges, items.gates, "gate", repeated, () => 1);
  const fanOuts = firstValues(edges, items.fanOuts, "fan_out", repeated, (item: FanOutDecl) => item.name.name);
  const own = ownPaths(edges.length, items.requirePaths);
  const rounds = new Float64Array(edges.length);
  const repairs = new Int32Array(edges.length);
  const gates = new Uint8Array(edges.length);
  const require = new Array<readonly string[]>(edges.length);
  const requireOf = createRequireOf(contracts);
  const contractOnly = new Array<readonly string[] | undefined>(EDGE_KINDS.length);
  const guardList = guards ?? NONE;
  for (let i = 0; i < edges.length; i++) {
    rounds[i] = counts.MaxRounds[i] ?? Infinity;
    repairs[i] = Math.min(counts.Repairs[i] ?? -1, 2 ** 31 - 1);
    gates[i] = gateLines[i] ?? 0;
    const guard = guardList[i];
    // A guard requires the fields it reads; leaving a gate requires the approval record.
    const leavesGate = approval && gates[i] === 1;
    // Arrays only for an edge with something to add: most edges of a large graph have none.
    const extra = guard === undefined && !leavesGate ? undefined : [...(guard === undefined ? [] : guardFields(guard)), ...(leavesGate ? [APPROVAL_FIELD] : [])];
    const paths = extra === undefined || extra.length === 0 ? own[i] : [...(own[i] ?? []), ...extra];
    const kind = EDGE_KINDS[declKinds[i] as number] as EdgeKind;
    // Most edges require just their kind's contract: one array per kind, found without a key.
    require[i] = paths === undefined ? (contractOnly[declKinds[i] as number] ??= requireOf(kind, undefined)) : requireOf(kind, paths);
  }
  return { declKinds, rounds, repairs, gates, observe, floors, fanOuts, own, guards: guardList, require, requireOf, repeated };
}

/** The one walk over the graph's items (and its edges' items). */
function sortItems(decl: GraphDecl): Omit<GraphItems, "edgeFromName" | "edgeToName"> {
  const agents: AgentDecl[] = [];
  const edges: EdgeDecl[] = [];
  const settings: SettingDecl[] = [];
  const counts = Object.fromEntries(COUNT_SETTINGS.map((spec) => [spec.node, []])) as unknown as Record<
    CountSettingNode,
    { edge: number; item: MaxRoundsDecl | RepairsDecl }[]
  >;
  const floors: { edge: number; item: MinConfidenceDecl }[] = [];
  const gates: { edge: number; range: Range }[] = [];
  const fanOuts: { edge: number; item: FanOutDecl }[] = [];
  const requirePaths: { edge: number; path: FieldPath }[] = [];
  // Index loops: see docs/performance.md, "Loops over a large graph".
  for (let g = 0; g < decl.items.length; g++) {
    const item = decl.items[g] as GraphDecl["items"][number];
    if (item.hasError) continue;
    if (item.kind === "Agent") {
      agents.push(item);
    } else if (item.kind === "Edge") {
      for (let k = 0; k < item.items.length; k++) {
        const edgeItem = item.items[k] as EdgeDecl["items"][number];
        if (edgeItem.hasError) continue;
        switch (edgeItem.kind) {
          case "Require":
            for (const path of edgeItem.paths) requirePaths.push({ edge: edges.length, path });
            break;
          case "MinConfidence":
            floors.push({ edge: edges.length, item: edgeItem });
            break;
          case "Gate":
            gates.push({ edge: edges.length, range: edgeItem.range });
            break;
          case "FanOut":
            fanOuts.push({ edge: edges.length, item: edgeItem });
            break;
          default:
            counts[edgeItem.kind].push({ edge: edges.length, item: edgeItem });
        }
      }
      edges.push(item);
    } else {
      settings.push(item);
    }
  }
  return { agents, edges, settings, counts, floors, gates, fanOuts, requirePaths };
}

/**
 * Name ids of every edge's endpoints (see {@link GraphItems.edgeFromName}). Undeclared names get
 * ids past the agents, in the order the ends are read, so that duplicates among them are found
 * alike. Each distinct name is looked up once, through the {@link EndNames} of `decl`.
 */
function nameEdgeEnds(
  decl: GraphDecl,
  edges: readonly EdgeDecl[],
  agentIndex: ReadonlyMap<string, number>,
): { edgeFromName: Int32Array; edgeToName: Int32Array } {
  let ends = endNamesOf.get(decl);
  if (ends === undefined || !sameEnds(ends, edges)) {
    ends = readEndNames(edges);
    endNamesOf.set(decl, ends);
  }
  const { from, to, names } = ends;
  // Name id -> agent index or unknown id; -1 until the name is first met.
  const resolved = new Int32Array(names.length).fill(-1);
  let next = agentIndex.size;
  const edgeFromName = new Int32Array(edges.length);
  const edgeToName = new Int32Array(edges.length);
  for (let i = 0; i < edges.length; i++) {
    const f = from[i] as number;
    if (resolved[f] === -1) resolved[f] = agentIndex.get(names[f] as string) ?? next++;
    edgeFromName[i] = resolved[f] as number;
    const t = to[i] as number;
    if (resolved[t] === -1) resolved[t] = agentIndex.get(names[t] as string) ?? next++;
    edgeToName[i] = resolved[t] as number;
  }
  return { edgeFromName, edgeToName };
}

/**
 * The names of a graph's edge ends, each distinct name numbered once: an edge's ends name one
 * of a few thousand agents, so binding looks each name up once rather than once per end (the
 * lookups, which compare the strings, cost ~2 ms per check at 4 * 10^4 edges when measured).
 */
interface EndNames {
  /** Name id of each edge's source and target, by position in `GraphItems.edges`. */
  readonly from: Int32Array;
  readonly to: Int32Array;
  /** The distinct names, by id: an end's name as read is `names[from[i]]`, which tells whether a name edit changed it. */
  readonly names: readonly string[];
}

/**
 * {@link EndNames} of each graph node bound so far (weak, as {@link sortedItems}). A name edit
 * may change an edge's end in place (`name-edit.ts`), so each bind compares the ends with the
 * names read; any difference reads them all again, so nothing accumulates across edits.
 */
const endNamesOf = new WeakMap<GraphDecl, EndNames>();

/** True when every edge end of `edges` still has the name `ends` read. */
function sameEnds(ends: EndNames, edges: readonly EdgeDecl[]): boolean {
  const { from, to, names } = ends;
  if (from.length !== edges.length) return false;
  for (let i = 0; i < edges.length; i++) {
    const edge = edges[i] as EdgeDecl;
    if (edge.from.name !== names[from[i] as number] || edge.to.name !== names[to[i] as number]) return false;
  }
  return true;
}

/** Numbers the distinct names of the ends of `edges` ({@link EndNames}). */
function readEndNames(edges: readonly EdgeDecl[]): EndNames {
  const ids = new Map<string, number>();
  const names: string[] = [];
  const idOf = (name: string): number => {
    let id = ids.get(name);
    if (id === undefined) {
      id = names.length;
      ids.set(name, id);
      names.push(name);
    }
    return id;
  };
  const from = new Int32Array(edges.length);
  const to = new Int32Array(edges.length);
  for (let i = 0; i < edges.length; i++) {
    const edge = edges[i] as EdgeDecl;
    from[i] = idOf(edge.from.name);
    to[i] = idOf(edge.to.name);
  }
  return { from, to, names };
}

function nameCount(agents: number, from: Int32Array, to: Int32Array): number {
  let count = agents;
  for (let i = 0; i < from.length; i++) count = Math.max(count, (from[i] as number) + 1, (to[i] as number) + 1);
  return count;
}

/** The first value of each edge's `label` lines (undefined where none), noting repeated lines. */
function firstValues<T extends { readonly range: Range }, V>(
  edges: readonly EdgeDecl[],
  lines: readonly ({ readonly edge: number } & ({ readonly item: T } | { readonly range: Range }))[],
  label: string,
  repeated: RepeatedSetting[],
  valueOf: (item: T) => V,
): readonly (V | undefined)[] {
  // No lines, no array: most graphs have no line of a kind (see sparseColumn).
  if (lines.length === 0) return NONE;
  const values = new Array<V | undefined>(edges.length).fill(undefined);
  let first: Range | undefined;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k] as (typeof lines)[number];
    const range = "item" in line ? line.item.range : line.range;
    // The lines of one edge are consecutive.
    if (k === 0 || lines[k - 1]?.edge !== line.edge) {
      first = range;
      values[line.edge] = valueOf(("item" in line ? line.item : line) as T);
    } else if (first !== undefined) {
      repeated.push({ label, owner: edges[line.edge] as EdgeDecl, range, firstRange: first });
    }
  }
  return values;
}

/** The `require` paths of each of `count` edges, by position in `GraphItems.edges` (a sparse array: few edges have any; empty when none has). */
function ownPaths(count: number, requirePaths: GraphItems["requirePaths"]): readonly (string[] | undefined)[] {
  if (requirePaths.length === 0) return NONE;
  const paths = new Array<string[] | undefined>(count);
  for (const { edge, path } of requirePaths) (paths[edge] ??= []).push(path.text);
  return paths;
}

/**
 * Effective required paths of an edge. Edges with the same kind and own paths share one array
 * (most have none, and the rest repeat a few lines), so a large graph sorts each set once.
 */
function createRequireOf(contracts: Readonly<Record<EdgeKind, readonly string[]>>) {
  const shared = new Map<string, readonly string[]>();
  return (kind: EdgeKind, own: readonly string[] | undefined): readonly string[] => {
    const key = own === undefined ? kind : `${kind}\n${own.join("\n")}`;
    let paths = shared.get(key);
    if (paths === undefined) {
      paths = [...new Set([...contracts[kind], ...(own ?? [])])].sort();
      shared.set(key, paths);
    }
    return paths;
  };
}

/**
 * An agent declaration bound once: the agent, and what it reported as dropped or written twice
 * (each list in the order {@link bindAgent} found them; most agents share {@link NONE}).
 */
interface AgentBinding {
  readonly bound: BoundAgent;
  readonly droppedTerminals: readonly Dropped["terminals"][number][];
  readonly repeated: readonly RepeatedSetting[];
}


/**
 * The binding of each agent declaration bound so far, which holds while its name does: a
 * letter typed in a name binds the same tree again (`src/program/name-edit.ts`) and changes
 * one agent's name at most, and nothing else binding reads of an agent changes in place (a
 * description edit swaps its checked terminal in the `terminals` array that the checked agent
 * shares with this binding). Weak, as {@link sortedItems}.
 */
const agentBindings = new WeakMap<AgentDecl, AgentBinding>();

/** {@link bindAgent}, from {@link agentBindings} while the declaration's name is the one bound. */
function boundAgentOf(decl: AgentDecl, droppedTerminals: Dropped["terminals"][number][], repeated: RepeatedSetting[]): BoundAgent {
  let binding = agentBindings.get(decl);
  if (binding === undefined || binding.bound.id !== decl.name.name) {
    const dropped: Dropped["terminals"][number][] = [];
    const written: RepeatedSetting[] = [];
    const bound = bindAgent(decl, dropped, written);
    binding = { bound, droppedTerminals: dropped.length === 0 ? NONE : dropped, repeated: written.length === 0 ? NONE : written };
    agentBindings.set(decl, binding);
  }
  for (let k = 0; k < binding.droppedTerminals.length; k++) droppedTerminals.push(binding.droppedTerminals[k] as Dropped["terminals"][number]);
  for (let k = 0; k < binding.repeated.length; k++) repeated.push(binding.repeated[k] as RepeatedSetting);
  return binding.bound;
}

function bindAgent(decl: AgentDecl, droppedTerminals: Dropped["terminals"][number][], repeated: RepeatedSetting[]): BoundAgent {
  const id = decl.name.name;
  const role = decl.role.value;
  if (decl.items.length === 0) return { id, role, terminals: [], decl };
  let version: AgentVersionDecl | undefined;
  // The first line of each `once` setting other than `version` (`gate`, `effect`).
  const once = new Map<string, { range: Range; value?: string }>();
  const terminals: CheckedTerminal[] = [];
  // Terminal ids by first declaration; made only for an agent with a second terminal, as most
  // agents have one at most.
  let firstTerminal: TerminalDecl | undefined;
  let seen: Map<string, TerminalDecl> | undefined;
  let join: CheckedJoin | undefined;
  for (const item of decl.items) {
    if (item.hasError) continue;
    if (item.kind === "AgentVersion") {
      if (version === undefined) version = item;
      else repeated.push({ label: "version", owner: decl, range: item.range, firstRange: version.range });
      continue;
    }
    if (item.kind === "Gate" || item.kind === "Effect" || item.kind === "Join") {
      const label = settingOfNode(item.kind).keyword;
      const first = once.get(label);
      if (first === undefined) {
        once.set(label, item.kind === "Effect" ? { range: item.range, value: item.value.value } : { range: item.range });
        if (item.kind === "Join") join = joinOf(item);
      } else {
        repeated.push({ label, owner: decl, range: item.range, firstRange: first.range });
      }
      continue;
    }
    if (firstTerminal === undefined) {
      firstTerminal = item;
    } else {
      seen ??= new Map([[firstTerminal.name.name, firstTerminal]]);
      const earlier = seen.get(item.name.name);
      if (earlier !== undefined) {
        droppedTerminals.push({ decl: item, first: earlier, agent: decl });
        continue;
      }
      seen.set(item.name.name, item);
    }
    const outcome: Outcome = item.outcome?.value ?? DEFAULT_OUTCOME;
    terminals.push(
      item.description ? { id: item.name.name, outcome, description: item.description.value } : { id: item.name.name, outcome },
    );
  }
  const effect = once.get("effect")?.value;
  return {
    id,
    role,
    ...(version === undefined ? {} : { version: version.value.value }),
    ...(once.has("gate") ? { gate: true as const } : {}),
    ...(effect === undefined ? {} : { effect }),
    ...(join === undefined ? {} : { join }),
    // A copy of its own length: a list grown by push keeps room for 16 more (see the parser's `fitted`).
    terminals: terminals.slice(),
    decl,
  };
}

/** A `join` line as the checked model holds it (inputs deduplicated, in source order). */
function joinOf(item: JoinDecl): CheckedJoin {
  const wait = item.wait.kind === "Keyword" ? item.wait.value : item.wait.value;
  const otherwise = item.otherwise === undefined || item.otherwise.kind === "Keyword" ? "escalate" : { terminal: item.otherwise.name };
  return {
    wait,
    inputs: [...new Set(item.inputs.map((i) => i.name))],
    ...(item.within === undefined ? {} : { within: item.within.value }),
    otherwise,
    decl: item,
  };
}
