/**
 * Where each agent and graph name of a document is written: declarations (`agent x`, `graph g`)
 * and references (edge ends, `entry` lines). Go to definition, references, rename, hover and
 * semantic tokens all start here. Agent names are scoped to their graph; a graph name to the file.
 */
import type { Range } from "../core/source-file.js";
import type { Analysis, GraphNode } from "./front-end.js";

/** One place a name is written. */
export interface NameOccurrence {
  readonly kind: "agent" | "graph";
  readonly name: string;
  readonly range: Range;
  /** The graph block the name is written in. */
  readonly graph: GraphNode;
  /** `agent x: ...` or `graph g`, rather than a use of the name. */
  readonly declaration: boolean;
}

const cache = new WeakMap<Analysis, readonly NameOccurrence[]>();

/** Every name occurrence of the document, in source order. Computed once per analysis. */
export function nameOccurrences(analysis: Analysis): readonly NameOccurrence[] {
  let found = cache.get(analysis);
  if (found === undefined) {
    found = collect(analysis);
    cache.set(analysis, found);
  }
  return found;
}

/** Half-written declarations count for the names they have (`delegate a -> ` uses `a`). */
function collect(analysis: Analysis): NameOccurrence[] {
  const out: NameOccurrence[] = [];
  for (const graph of analysis.ast.graphs) {
    const add = (kind: NameOccurrence["kind"], name: { name: string; range: Range } | undefined, declaration: boolean): void => {
      if (name !== undefined) out.push({ kind, name: name.name, range: name.range, graph, declaration });
    };
    add("graph", graph.name, true);
    for (const item of graph.items ?? []) {
      if (item.kind === "Agent") add("agent", item.name, true);
      else if (item.kind === "Entry") for (const agent of item.agents ?? []) add("agent", agent, false);
      else if (item.kind === "Edge") {
        add("agent", item.from, false);
        add("agent", item.to, false);
      }
    }
  }
  return out.sort((a, b) => a.range.start - b.range.start);
}

/** The occurrence under `offset` (a cursor just after a name counts as on it), if any. */
export function occurrenceAt(analysis: Analysis, offset: number): NameOccurrence | undefined {
  const all = nameOccurrences(analysis);
  let lo = 0;
  let hi = all.length;
  // The last occurrence starting at or before the offset.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((all[mid] as NameOccurrence).range.start <= offset) lo = mid + 1;
    else hi = mid;
  }
  const candidate = all[lo - 1];
  return candidate !== undefined && offset <= candidate.range.end ? candidate : undefined;
}

/**
 * Every occurrence of the same name: for an agent, within its graph; for a graph, every graph
 * block of the file with that name. In source order.
 */
export function occurrencesOf(analysis: Analysis, target: NameOccurrence): NameOccurrence[] {
  return nameOccurrences(analysis).filter(
    (o) => o.kind === target.kind && o.name === target.name && (o.kind === "graph" || o.graph === target.graph),
  );
}
