/**
 * `check()`: parse + name resolution + graph facts + hop limits + every rule, for each graph of a
 * file (each checked on its own). Never throws on any input: a crash inside Seam becomes an
 * `internal-error` diagnostic.
 */
import { sortDiagnostics, type Diagnostic } from "../core/diagnostic.js";
import { createSourceFile, type Range, type SourceFile } from "../core/source-file.js";
import type { Comment, EdgeDecl, EdgeKind, GraphDecl } from "../parser/ast.js";
import { parse, type ParseResult } from "../parser/parse.js";
import type { ScanResult } from "../parser/scanner.js";
import { bindGraph, EDGE_KINDS, type BoundAgent, type BoundGraph } from "./bind.js";
import { computeGraphFacts } from "./graph-facts.js";
import { computeHopBounds, type HopBoundOptions, type HopBounds } from "./hop-limits.js";
import type { CheckedAgent, CheckedEdge, CheckedGraph, CheckResult, HopLimitInfo } from "./model.js";
import { internalError, runRules, type RuleModel } from "./rule.js";
import { ruleCatalog, rules } from "./rules/index.js";
import { applySuppressions } from "./suppressions.js";

/** Options of {@link check}; the defaults are what `seam check` uses. */
export interface CheckOptions {
  /** Budget of the exact hop-limit search (see `hop-limits.ts`). */
  readonly hopSearch?: HopBoundOptions;
}

/**
 * Checks one `.seam` file.
 *
 * @returns the AST, the checked graphs (one per `graph` block that could be analysed) and every
 *   diagnostic (syntax first found by the parser, then the rules, less those silenced by
 *   suppression comments, plus the findings about those comments), sorted by position
 * @param scanned - the scan of `file.text` when the caller has one (see `parse`)
 */
export function check(file: SourceFile, options: CheckOptions = {}, scanned?: ScanResult): CheckResult {
  return checkParsed(file, parse(file, scanned), options);
}

/**
 * {@link check} after the parse: binding, graph facts, hop limits and every rule on `parsed`, the
 * tree and syntax diagnostics of `file` (what `parse(file)` returns, or a tree equal to it: a
 * language server's previous tree with one name changed, `src/program/name-edit.ts`). The
 * result holds `parsed.ast` itself, not a copy.
 */
export function checkParsed(file: SourceFile, parsed: ParseResult, options: CheckOptions = {}): CheckResult {
  const diagnostics: Diagnostic[] = [...parsed.diagnostics];
  const graphs: CheckedGraph[] = [];
  const firstByName = new Map<string, GraphDecl>();
  parsed.ast.graphs.forEach((decl, g) => {
    // A graph without a name cannot be analysed; its syntax error says what to fix.
    if (decl.hasError) return;
    if (!firstByName.has(decl.name.name)) firstByName.set(decl.name.name, decl);
    // A syntax error between this graph's start and the next graph's start may have cost this
    // graph items (an unterminated comment swallows the rest of the file, say).
    const next = parsed.ast.graphs[g + 1]?.range.start ?? Infinity;
    const incomplete = parsed.diagnostics.some((d) => d.range.start >= decl.range.start && d.range.start < next);
    const comments = commentsWithin(parsed.ast.comments, decl.range);
    const context: GraphContext = { incomplete, firstOfName: firstByName.get(decl.name.name) ?? decl, comments };
    let model: RuleModel;
    try {
      model = analyseGraph(file, decl, context, options);
    } catch (error) {
      diagnostics.push(internalError(file, decl.name.range, `the analysis of graph '${decl.name.name}'`, error));
      return;
    }
    graphs.push(model.graph);
    // A loop, not push(...xs): a large graph can yield more findings than a call has arguments.
    for (const diagnostic of runRules(rules, model)) diagnostics.push(diagnostic);
  });
  const shown = applySuppressions(file, parsed.ast.comments, diagnostics, knownRuleIds, parsed.diagnostics.length > 0);
  return { file, ast: parsed.ast, graphs, diagnostics: sortDiagnostics(shown) };
}

const knownRuleIds: ReadonlySet<string> = new Set(ruleCatalog.map((r) => r.id));

/** {@link check} on a text, for tests and the API. `path` is only used in diagnostics. */
export function checkText(path: string, text: string, options: CheckOptions = {}): CheckResult {
  return check(createSourceFile(path, text), options);
}

/** What a graph's rules need to know about the rest of its file. */
type GraphContext = Pick<RuleModel, "incomplete" | "firstOfName" | "comments">;

/** The comments (sorted by offset) that start inside `range`, found by binary search. */
function commentsWithin(comments: readonly Comment[], range: Range): readonly Comment[] {
  let lo = 0;
  let hi = comments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((comments[mid] as Comment).range.start < range.start) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < comments.length && (comments[end] as Comment).range.start < range.end) end++;
  return comments.slice(lo, end);
}

function analyseGraph(file: SourceFile, decl: GraphDecl, context: GraphContext, options: CheckOptions): RuleModel {
  const bound = bindGraph(decl);
  const facts = computeGraphFacts(bound);
  const bounds = computeHopBounds(
    {
      size: bound.agents.length,
      from: bound.edgeFrom,
      to: bound.edgeTo,
      // An edge no task can take (a guard that never matches) counts as max_rounds 0.
      rounds: facts.routers.length === 0 ? bound.edgeRounds : bound.edgeRounds.map((r, e) => (facts.route[e] === 1 ? r : 0)),
      entries: bound.entries,
      terminal: facts.terminal,
      ...fanOutGroups(bound),
      walk: facts.walk,
      reverse: facts.reverse,
    },
    options.hopSearch,
  );
  const graph: CheckedGraph = {
    name: bound.name,
    envelope: bound.envelope,
    entries: bound.entries.map((v) => (bound.agents[v] as BoundAgent).id),
    hopLimit: hopLimitInfo(bound, bounds),
    onHopLimit: bound.onHopLimit,
    loopSignature: bound.loopSignature,
    contracts: bound.contracts,
    agents: bound.agents.map((agent, v) => checkedAgent(agent, facts.reachable[v] === 1, facts.canTerminate[v] === 1)),
    edges: checkedEdges(bound, facts.inUnboundedCycle),
    unboundedCycles: facts.unboundedCycles.map((cycle) => {
      const name = (v: number): string => (bound.agents[v] as BoundAgent).id;
      return cycle.length === 0 ? [] : [name(bound.edgeFrom[cycle[0] as number] as number), ...cycle.map((e) => name(bound.edgeTo[e] as number))];
    }),
    decl,
  };
  return { file, graph, bound, facts, ...context };
}

/**
 * The fan-out of each bound edge as a group id for the hop-limit search (`HopGraph.groups`):
 * delegate edges of one supervisor with the same `fan_out` name, where there are two or more.
 * Nothing for a graph without fan-outs.
 */
function fanOutGroups(bound: BoundGraph): { groups?: Int32Array } {
  const delegate = EDGE_KINDS.indexOf("delegate");
  const keyOf = (e: number): string | undefined => {
    const name = bound.edgeFanOut[e];
    return name === undefined || bound.edgeKind[e] !== delegate ? undefined : `${bound.edgeFrom[e] as number}\n${name}`;
  };
  const sizes = new Map<string, number>();
  for (let e = 0; e < bound.edgeDecl.length; e++) {
    const key = keyOf(e);
    if (key !== undefined) sizes.set(key, (sizes.get(key) ?? 0) + 1);
  }
  if (sizes.size === 0) return {};
  const ids = new Map<string, number>();
  const groups = new Int32Array(bound.edgeDecl.length).fill(-1);
  for (let e = 0; e < groups.length; e++) {
    const key = keyOf(e);
    if (key === undefined || (sizes.get(key) as number) < 2) continue;
    if (!ids.has(key)) ids.set(key, ids.size);
    groups[e] = ids.get(key) as number;
  }
  return { groups };
}

function hopLimitInfo(bound: BoundGraph, bounds: HopBounds): HopLimitInfo {
  const written = bound.hopLimit?.value;
  const declared = written?.kind === "IntegerLiteral" ? written.value : undefined;
  return {
    ...(declared !== undefined
      ? { value: declared, declared }
      : bounds.longestWalk !== undefined && Number.isSafeInteger(bounds.longestWalk + 1)
        ? { value: bounds.longestWalk + 1 }
        : {}),
    ...(bounds.longestWalk !== undefined ? { longestWalk: bounds.longestWalk } : {}),
    exact: bounds.exact,
    ...(bounds.approximation !== undefined ? { approximation: bounds.approximation } : {}),
    ...(bounds.shortestWalk !== undefined ? { shortestWalk: bounds.shortestWalk } : {}),
  };
}

// Object literals of fixed shape, not spreads: a large graph builds 10^5 agents and 4 * 10^5 edges.
function checkedAgent(agent: BoundAgent, reachable: boolean, canTerminate: boolean): CheckedAgent {
  const { id, role, version, gate, effect, join, terminals, decl } = agent;
  const checked: CheckedAgent =
    version === undefined
      ? { id, role, terminals, reachable, canTerminate, decl }
      : { id, role, version, terminals, reachable, canTerminate, decl };
  return gate === undefined && effect === undefined && join === undefined
    ? checked
    : { ...checked, ...(gate === undefined ? {} : { gate }), ...(effect === undefined ? {} : { effect }), ...(join === undefined ? {} : { join }) };
}

/**
 * The checked edges, one per bound edge. The ends' names are the agents' ids (a bound edge's ends
 * are declared agents, whose id is the name written) and the rest comes from the columns: the
 * edge declarations are not read, as each read of a node of a large tree is likely a cache miss.
 */
function checkedEdges(bound: BoundGraph, inUnboundedCycle: Uint8Array): CheckedEdge[] {
  const ids = new Array<string>(bound.agents.length);
  for (let v = 0; v < ids.length; v++) ids[v] = (bound.agents[v] as BoundAgent).id;
  const edges = new Array<CheckedEdge>(bound.edgeDecl.length);
  for (let e = 0; e < edges.length; e++) {
    edges[e] = checkedEdge(bound, e, ids[bound.edgeFrom[e] as number] as string, ids[bound.edgeTo[e] as number] as string, inUnboundedCycle[e] === 1);
  }
  return edges;
}

function checkedEdge(bound: BoundGraph, index: number, from: string, to: string, inUnboundedCycle: boolean): CheckedEdge {
  const decl = bound.edgeDecl[index] as EdgeDecl;
  const kind = EDGE_KINDS[bound.edgeKind[index] as number] as EdgeKind;
  const observe = bound.edgeObserve[index] === 1;
  const maxRounds = bound.edgeRounds[index] as number;
  const require = bound.edgeRequire[index] as readonly string[];
  const repairs = bound.edgeRepairs[index] as number;
  const edge: CheckedEdge =
    maxRounds === Infinity
      ? { index, kind, from, to, observe, require, inUnboundedCycle, decl }
      : { index, kind, from, to, observe, maxRounds, require, inUnboundedCycle, decl };
  const guard = bound.edgeGuard[index];
  const minConfidence = bound.edgeFloor[index];
  const gate = bound.edgeGate[index] === 1;
  const fanOut = bound.edgeFanOut[index];
  if (repairs < 0 && guard === undefined && minConfidence === undefined && !gate && fanOut === undefined) return edge;
  return {
    ...edge,
    ...(repairs < 0 ? {} : { repairs }),
    ...(guard === undefined ? {} : { guard }),
    ...(minConfidence === undefined ? {} : { minConfidence }),
    ...(gate ? { gate: true as const } : {}),
    ...(fanOut === undefined ? {} : { fanOut }),
  };
}
