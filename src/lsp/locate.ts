/**
 * What the cursor is on, in terms a hover can explain: a name (agent or graph), an edge's
 * header, a field path or a terminal. Found by walking the one graph block that holds the offset;
 * half-written declarations answer for the parts they have.
 */
import type { CheckedGraph } from "../analysis/model.js";
import type { FieldPath } from "../parser/ast.js";
import type { AgentNode, Analysis, EdgeNode, GraphNode, TerminalNode } from "./front-end.js";
import { occurrenceAt, type NameOccurrence } from "./names.js";
import { settingOfNode, type SettingSpec } from "../core/settings.js";
import type { Range } from "../core/source-file.js";

/** The setting whose keyword lies under `offset` among a block's items, if any. */
function settingAt(items: readonly { readonly kind: string; readonly range: Range }[] | undefined, block: "agent" | "edge", offset: number): Located | undefined {
  for (const item of items ?? []) {
    const setting = settingOfNode(item.kind);
    const range = { start: item.range.start, end: item.range.start + setting.keyword.length };
    if (inside(range, offset)) return { kind: "setting", setting, block, range };
  }
  return undefined;
}

/** The thing under the cursor. `checked` is the graph's checked model, absent when analysis failed. */
export type Located =
  | { readonly kind: "name"; readonly occurrence: NameOccurrence; readonly checked?: CheckedGraph }
  | { readonly kind: "edge"; readonly edge: EdgeNode; readonly checked?: CheckedGraph }
  | { readonly kind: "field"; readonly path: FieldPath }
  | { readonly kind: "terminal"; readonly terminal: TerminalNode; readonly agent: AgentNode }
  | { readonly kind: "setting"; readonly setting: SettingSpec; readonly block: "agent" | "edge"; readonly range: Range };

const inside = (range: { start: number; end: number }, offset: number): boolean => range.start <= offset && offset <= range.end;

/** The checked model of a graph block, matched by identity of its declaration. */
export function checkedGraphOf(analysis: Analysis, decl: GraphNode): CheckedGraph | undefined {
  return analysis.graphs.find((g) => g.decl === decl);
}

/** What lies at `offset`, or `undefined` for keywords, punctuation, comments and blank space. */
export function locate(analysis: Analysis, offset: number): Located | undefined {
  const occurrence = occurrenceAt(analysis, offset);
  if (occurrence !== undefined) {
    const checked = checkedGraphOf(analysis, occurrence.graph);
    return checked ? { kind: "name", occurrence, checked } : { kind: "name", occurrence };
  }
  const graph = analysis.ast.graphs.find((g) => inside(g.range, offset));
  if (graph === undefined) return undefined;
  const fieldIn = (paths: readonly FieldPath[] | undefined): Located | undefined => {
    const path = paths?.find((p) => inside(p.range, offset));
    return path ? { kind: "field", path } : undefined;
  };
  for (const item of graph.items ?? []) {
    if (!inside(item.range, offset)) continue;
    switch (item.kind) {
      case "LoopSignature":
        return fieldIn(item.paths);
      case "Contract":
        return fieldIn(item.requires?.find((req) => inside(req.range, offset))?.paths);
      case "Agent": {
        const keyword = settingAt(item.items, "agent", offset);
        if (keyword !== undefined) return keyword;
        const terminal = item.items?.find((t): t is TerminalNode => t.kind === "Terminal" && t.name !== undefined && inside(t.name.range, offset));
        return terminal ? { kind: "terminal", terminal, agent: item } : undefined;
      }
      case "Edge": {
        const keyword = settingAt(item.items, "edge", offset);
        if (keyword !== undefined) return keyword;
        const req = item.items?.find((r) => r.kind === "Require" && inside(r.range, offset));
        if (req !== undefined) return req.kind === "Require" ? fieldIn(req.paths) : undefined;
        const headerEnd = (item.to ?? item.from ?? item.edgeKind)?.range.end ?? item.range.start;
        if (item.edgeKind === undefined || offset > headerEnd) return undefined;
        const checked = checkedGraphOf(analysis, graph);
        return checked ? { kind: "edge", edge: item, checked } : { kind: "edge", edge: item };
      }
      default:
        return undefined;
    }
  }
  return undefined;
}
