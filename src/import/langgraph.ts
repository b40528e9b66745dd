/**
 * LangGraph: the JSON of `graph.get_graph().to_json()` (Python, `langchain_core.runnables.graph`)
 * or `(await graph.getGraph()).toJSON()` (JavaScript): `nodes` with `id` (and `type`, `data`),
 * `edges` with `source`, `target`, optional `data` (the branch's name) and `conditional`. The
 * `__start__` node's edges are the entries, an edge into `__end__` is a terminal of its source
 * (named after the branch, else `done`); conditional edges are routes. Every other node is an
 * agent: tool nodes too, since the JSON cannot tell them apart.
 */
import type { SourceFile } from "../core/source-file.js";
import { array, object, optionalText, readJson, readShape, ShapeError, text } from "./json-source.js";
import type { ImportedEdge, ImportedEnd, ImportedGraph, ImportResult } from "./model.js";

const START = "__start__";
const END = "__end__";
const HINT = "give the JSON of graph.get_graph().to_json() (Python) or graph.getGraph().toJSON() (JavaScript)";

/** Reads a LangGraph graph JSON. `name` is the graph's name (the input file's, by default). */
export function importLangGraph(file: SourceFile, name: string): ImportResult {
  const json = readJson(file, "graph");
  if (!json.ok) return json;
  const shaped = readShape(() => fromJson(json.value, name), HINT);
  return shaped.ok ? { ok: true, graph: shaped.value } : shaped;
}

function fromJson(value: unknown, name: string): ImportedGraph {
  const root = object(value, "the graph");
  const ids: string[] = [];
  const known = new Set<string>();
  array(root["nodes"], "nodes").forEach((raw, i) => {
    const id = text(object(raw, `nodes[${i}]`)["id"], `nodes[${i}].id`);
    if (!known.has(id)) ids.push(id);
    known.add(id);
  });
  const ends = new Map<string, ImportedEnd[]>();
  const entries: string[] = [];
  const edges: ImportedEdge[] = [];
  array(root["edges"], "edges").forEach((raw, i) => {
    const edge = object(raw, `edges[${i}]`);
    const source = text(edge["source"], `edges[${i}].source`);
    const target = text(edge["target"], `edges[${i}].target`);
    for (const [id, field] of [[source, "source"], [target, "target"]] as const) {
      if (!known.has(id)) throw new ShapeError(`edges[${i}].${field}`, `the id of a node, not ${JSON.stringify(id).slice(0, 80)}`);
    }
    const conditional = edge["conditional"] === true;
    const label = optionalText(edge["data"]);
    if (source === START) {
      if (target !== END && !entries.includes(target)) entries.push(target);
    } else if (target === END) {
      const list = ends.get(source) ?? [];
      const end = conditional && label !== undefined ? label : "done";
      if (!list.some((e) => e.name === end)) list.push({ name: end });
      ends.set(source, list);
    } else if (target !== START) {
      edges.push({ from: source, to: target, ...(conditional ? { conditional: label === undefined ? {} : { label } } : {}) });
    }
  });
  const nodes = ids.filter((id) => id !== START && id !== END).map((id) => ({ id, ends: ends.get(id) ?? [] }));
  return { source: "LangGraph", name, nodes, edges, entries, notes: [] };
}
