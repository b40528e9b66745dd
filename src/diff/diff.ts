/**
 * `diffFiles()`: the findings between two versions of a `.seam` file, from their checked models
 * (never their text), by every module of `findings/index.ts`. Pure: no I/O, no CLI.
 */
import { sortDiagnostics } from "../core/diagnostic.js";
import { contractFieldsCache } from "./contract-fields.js";
import type { Finding } from "./finding.js";
import { diffRules } from "./findings/index.js";
import { graphSide, matchGraphs, type GraphPair, type GraphSide } from "./graph-pair.js";
import { createFinding, type FileFindingContext, type FileSide, type GraphFindingContext } from "./rule.js";

export type { FileSide } from "./rule.js";

/** The graphs of both versions, matched by name. */
export interface FilePair {
  readonly old: FileSide;
  readonly new: FileSide;
  readonly pairs: readonly GraphPair[];
  readonly removedGraphs: readonly GraphSide[];
  readonly addedGraphs: readonly GraphSide[];
}

/** Matches the graphs of two versions of a file by name (the checker refuses a name used twice). */
export function matchFiles(old: FileSide, next: FileSide): FilePair {
  const oldByName = new Map(old.graphs.map((graph) => [graph.name, graph]));
  const newNames = new Set(next.graphs.map((graph) => graph.name));
  const pairs: GraphPair[] = [];
  const addedGraphs: GraphSide[] = [];
  for (const graph of next.graphs) {
    const before = oldByName.get(graph.name);
    if (before === undefined) addedGraphs.push(graphSide(next.file, graph));
    else pairs.push(matchGraphs(graphSide(old.file, before), graphSide(next.file, graph)));
  }
  const removedGraphs = old.graphs.filter((graph) => !newNames.has(graph.name)).map((graph) => graphSide(old.file, graph));
  return { old, new: next, pairs, removedGraphs, addedGraphs };
}

/**
 * Every finding between two versions of a file, sorted by file, position, then id.
 *
 * @param old - the old version's file and checked graphs (free of errors)
 * @param next - the new version's
 * @throws Error only on a bug in Seam (a finding range outside its file)
 */
export function diffFiles(old: FileSide, next: FileSide): Finding[] {
  const files = matchFiles(old, next);
  const findings: Finding[] = [];
  const fields = contractFieldsCache();
  for (const rule of diffRules) {
    if (rule.scope === "file") {
      const context: FileFindingContext = {
        old,
        new: next,
        removedGraphs: files.removedGraphs,
        addedGraphs: files.addedGraphs,
        report: (init) => findings.push(createFinding(rule.meta, init.graph, init)),
      };
      rule.check(context);
      continue;
    }
    for (const pair of files.pairs) {
      const context: GraphFindingContext = {
        pair,
        oldFields: (require) => fields(pair.old.graph, require),
        newFields: (require) => fields(pair.new.graph, require),
        report: (init) => findings.push(createFinding(rule.meta, pair.new.graph.name, init)),
      };
      rule.check(context);
    }
  }
  return sortDiagnostics(findings) as Finding[];
}
