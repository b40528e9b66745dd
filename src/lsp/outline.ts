/**
 * The document's outline and folds. Symbols: each graph (a namespace) holding its settings,
 * agents (with their terminals), contracts and edges, in source order. Folding ranges: every
 * block (`{ ... }`) and every block comment or run of line comments that spans lines.
 */
import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange } from "vscode-languageserver/node";
import type { Range } from "../core/source-file.js";
import type { Analysis, GraphItemNode } from "./front-end.js";
import { toLspRange, toPosition } from "./positions.js";

/**
 * `textDocument/documentSymbol`: one symbol per graph, its items as children. A half-written
 * declaration is listed once it has its name (an edge: both ends).
 */
export function documentSymbols(analysis: Analysis): DocumentSymbol[] {
  const symbol = (name: string, detail: string, kind: SymbolKind, range: Range, selection: Range, children?: DocumentSymbol[]): DocumentSymbol => ({
    name,
    detail,
    kind,
    range: toLspRange(analysis.file, range),
    selectionRange: toLspRange(analysis.file, selection),
    ...(children === undefined ? {} : { children }),
  });
  const itemSymbol = (item: GraphItemNode): DocumentSymbol[] => {
    switch (item.kind) {
      case "Agent": {
        if (item.name === undefined) return [];
        const terminals = (item.items ?? []).flatMap((t) =>
          t.kind === "Terminal" && t.name !== undefined ? [symbol(t.name.name, t.outcome?.value ?? "complete", SymbolKind.EnumMember, t.range, t.name.range)] : [],
        );
        return [symbol(item.name.name, item.role?.value ?? "", SymbolKind.Class, item.range, item.name.range, terminals)];
      }
      case "Edge":
        if (item.from === undefined || item.to === undefined) return [];
        return [symbol(`${item.from.name} -> ${item.to.name}`, item.edgeKind?.value ?? "", SymbolKind.Function, item.range, { start: item.from.range.start, end: item.to.range.end })];
      case "Contract":
        return [symbol(`contract ${item.edgeKind?.value ?? ""}`.trim(), "", SymbolKind.Interface, item.range, item.edgeKind?.range ?? item.range)];
      default: {
        const keyword = SETTING_KEYWORDS[item.kind];
        return [symbol(keyword, analysis.file.text.slice(item.range.start + keyword.length, item.range.end).trim(), SymbolKind.Property, item.range, item.range)];
      }
    }
  };
  return analysis.ast.graphs.flatMap((graph) =>
    graph.name === undefined ? [] : [symbol(graph.name.name, "graph", SymbolKind.Namespace, graph.range, graph.name.range, (graph.items ?? []).flatMap(itemSymbol))],
  );
}

/** The keyword that starts each graph setting. */
const SETTING_KEYWORDS = {
  Envelope: "envelope",
  Entry: "entry",
  HopLimit: "hop_limit",
  OnHopLimit: "on_hop_limit",
  LoopSignature: "loop_signature",
} as const;

/** `textDocument/foldingRange`: blocks fold to their first line; comments fold as comments. */
export function foldingRanges(analysis: Analysis): FoldingRange[] {
  const folds: FoldingRange[] = [];
  const lineOf = (offset: number): number => toPosition(analysis.file, offset).line;
  // Each `{` with its matching `}`; the closing line stays visible.
  const open: number[] = [];
  for (const token of analysis.tokens) {
    if (token.text === "{") open.push(lineOf(token.start));
    else if (token.text === "}") {
      const startLine = open.pop();
      const endLine = lineOf(token.start) - 1;
      if (startLine !== undefined && endLine > startLine) folds.push({ startLine, endLine });
    }
  }
  // Comments: a block comment over several lines, or line comments alone on consecutive lines.
  const { text, lineStarts } = analysis.file;
  let run: { startLine: number; endLine: number } | undefined;
  const flush = (): void => {
    if (run !== undefined && run.endLine > run.startLine) folds.push({ ...run, kind: FoldingRangeKind.Comment });
    run = undefined;
  };
  for (const comment of analysis.comments) {
    const startLine = lineOf(comment.start);
    if (text.startsWith("//", comment.start)) {
      const alone = text.slice(lineStarts[startLine] as number, comment.start).trim() === "";
      if (alone && run !== undefined && startLine === run.endLine + 1) {
        run.endLine = startLine;
        continue;
      }
      flush();
      if (alone) run = { startLine, endLine: startLine };
      continue;
    }
    flush();
    const endLine = lineOf(comment.end);
    if (endLine > startLine) folds.push({ startLine, endLine, kind: FoldingRangeKind.Comment });
  }
  flush();
  return folds.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}
