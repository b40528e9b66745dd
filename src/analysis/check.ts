/**
 * `check()`: parse + name resolution + graph facts + hop limits + every rule, for each graph of a
 * file (each checked on its own). Never throws on any input: a crash inside Seam becomes an
 * `internal-error` diagnostic.
 */
import { sortDiagnostics, type Diagnostic } from "../core/diagnostic.js";
import { createSourceFile, type SourceFile } from "../core/source-file.js";
import type { GraphDecl } from "../parser/ast.js";
import { parse } from "../parser/parse.js";
import { bindGraph } from "./bind.js";
import { computeGraphFacts } from "./graph-facts.js";
import { computeHopBounds, type HopBoundOptions } from "./hop-limits.js";
import type { CheckedGraph, CheckResult, HopLimitInfo } from "./model.js";
import { internalError, runRules, type RuleModel } from "./rule.js";
import { rules } from "./rules/index.js";

/** Options of {@link check}; the defaults are what `seam check` uses. */
export interface CheckOptions {
  /** Budget of the exact hop-limit search (see `hop-limits.ts`). */
  readonly hopSearch?: HopBoundOptions;
}

/**
 * Checks one `.seam` file.
 *
 * @returns the AST, the checked graphs (one per `graph` block that could be analysed) and every
 *   diagnostic (syntax first found by the parser, then the rules), sorted by position
 */
export function check(file: SourceFile, options: CheckOptions = {}): CheckResult {
  const parsed = parse(file);
  const diagnostics: Diagnostic[] = [...parsed.diagnostics];
  const graphs: CheckedGraph[] = [];
  for (const decl of parsed.ast.graphs) {
    let model: RuleModel;
    try {
      model = analyseGraph(file, decl, options);
    } catch (error) {
      diagnostics.push(internalError(file, decl.name.range, `the analysis of graph '${decl.name.name}'`, error));
      continue;
    }
    graphs.push(model.graph);
    diagnostics.push(...runRules(rules, model));
  }
  return { file, ast: parsed.ast, graphs, diagnostics: sortDiagnostics(diagnostics) };
}

/** {@link check} on a text, for tests and the API. `path` is only used in diagnostics. */
export function checkText(path: string, text: string, options: CheckOptions = {}): CheckResult {
  return check(createSourceFile(path, text), options);
}

function analyseGraph(file: SourceFile, decl: GraphDecl, options: CheckOptions): RuleModel {
  const bound = bindGraph(decl);
  const facts = computeGraphFacts(bound);
  const bounds = computeHopBounds(
    {
      size: bound.agents.length,
      from: bound.edges.map((e) => e.fromIndex),
      to: bound.edges.map((e) => e.toIndex),
      rounds: bound.edges.map((e) => e.maxRounds ?? Infinity),
      entries: bound.entries,
      terminal: facts.terminal,
    },
    options.hopSearch,
  );
  const written = bound.hopLimit?.value;
  const declared = written?.kind === "IntegerLiteral" ? written.value : undefined;
  const hopLimit: HopLimitInfo = {
    ...(declared !== undefined
      ? { value: declared, declared }
      : bounds.longestWalk !== undefined
        ? { value: bounds.longestWalk + 1 }
        : {}),
    ...(bounds.longestWalk !== undefined ? { longestWalk: bounds.longestWalk } : {}),
    exact: bounds.exact,
    ...(bounds.shortestWalk !== undefined ? { shortestWalk: bounds.shortestWalk } : {}),
  };
  const agents = bound.agents.map((agent, v) => ({
    id: agent.id,
    role: agent.role,
    ...(agent.version === undefined ? {} : { version: agent.version }),
    terminals: agent.terminals,
    reachable: facts.reachable[v] === 1,
    canTerminate: facts.canTerminate[v] === 1,
    decl: agent.decl,
  }));
  const edges = bound.edges.map((edge) => ({
    index: edge.index,
    kind: edge.kind,
    from: edge.from,
    to: edge.to,
    observe: edge.observe,
    ...(edge.maxRounds === undefined ? {} : { maxRounds: edge.maxRounds }),
    require: edge.require,
    inUnboundedCycle: facts.inUnboundedCycle[edge.index] === 1,
    decl: edge.decl,
  }));
  const graph: CheckedGraph = {
    name: bound.name,
    envelope: bound.envelope,
    entries: bound.entries.map((v) => (bound.agents[v] as { id: string }).id),
    hopLimit,
    onHopLimit: bound.onHopLimit,
    loopSignature: bound.loopSignature,
    contracts: bound.contracts,
    agents,
    edges,
    unboundedCycles: facts.unboundedCycles.map((cycle) => {
      const first = bound.edges[cycle[0] as number];
      return first ? [first.from, ...cycle.map((e) => (bound.edges[e] as { to: string }).to)] : [];
    }),
    decl,
  };
  return { file, graph, bound, facts };
}
