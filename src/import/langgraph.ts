/**
 * LangGraph: the JSON of `graph.get_graph().to_json()` (Python, `langchain_core.runnables.graph`)
 * or `(await graph.getGraph()).toJSON()` (JavaScript): `nodes` with `id` (and `type`, `data`),
 * `edges` with `source`, `target`, optional `data` (the branch's name) and `conditional`. The
 * `__start__` node's edges are the entries, an edge into `__end__` is a terminal of its source
 * (named after the branch, else `done`); conditional edges are routes. LangGraph takes every
 * plain edge out of a node at once: several are a fan-out, and a node that two or more of its
 * branches hand off to runs once, after them all (a join; the next superstep). The `--run`
 * helper adds `seam_send`, the nodes whose conditional-edge function builds `Send` objects: their
 * conditional edges are a fan-out too (guessed). Every other node is an agent: tool nodes too,
 * since the JSON cannot tell them apart.
 */
import type { SourceFile } from "../core/source-file.js";
import { array, object, optionalText, readJson, readShape, ShapeError, text } from "./json-source.js";
import type { ImportedEdge, ImportedEnd, ImportedGraph, ImportedJoin, ImportResult } from "./model.js";

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
  const sends = new Set(root["seam_send"] === undefined ? [] : array(root["seam_send"], "seam_send").map((v, i) => text(v, `seam_send[${i}]`)));
  const fanned = fanOuts(edges, sends);
  const waits = joins(fanned);
  const nodes = ids.filter((id) => id !== START && id !== END).map((id) => {
    const join = waits.get(id);
    return { id, ends: ends.get(id) ?? [], ...(join === undefined ? {} : { waits: join }) };
  });
  return {
    source: "LangGraph",
    name,
    nodes,
    edges: fanned,
    entries,
    ...(entries.length > 1 ? { entryGuess: `LangGraph starts ${entries.join(", ")} at once; a Seam task starts at one of them` } : {}),
    notes: [],
  };
}

/**
 * Marks the fan-outs: the plain edges of a node with two or more (LangGraph takes them all), and
 * the conditional edges of a node in `sends` (its function builds `Send` objects, so it may take
 * several at once).
 */
function fanOuts(edges: readonly ImportedEdge[], sends: ReadonlySet<string>): ImportedEdge[] {
  const plainOut = new Map<string, number>();
  for (const edge of edges) if (edge.conditional === undefined) plainOut.set(edge.from, (plainOut.get(edge.from) ?? 0) + 1);
  return edges.map((edge) => {
    if (edge.conditional === undefined && (plainOut.get(edge.from) ?? 0) > 1) return { ...edge, parallel: { group: edge.from } };
    if (edge.conditional !== undefined && sends.has(edge.from)) {
      return { from: edge.from, to: edge.to, parallel: { group: edge.from, guess: `the conditional edge function of ${edge.from} builds Send objects: LangGraph runs each Send at once` } };
    }
    return edge;
  });
}

/**
 * The joins: a node that two or more branches of one fan-out hand off to with a plain edge (a
 * branch node that two fan-outs start belongs to neither). Linear in the edges.
 */
function joins(edges: readonly ImportedEdge[]): Map<string, ImportedJoin> {
  const startedBy = new Map<string, string | null>();
  for (const edge of edges) if (edge.parallel !== undefined) startedBy.set(edge.to, startedBy.has(edge.to) ? null : edge.from);
  const into = new Map<string, { from: string; to: string; inputs: string[] }>();
  for (const edge of edges) {
    if (edge.conditional !== undefined || edge.parallel !== undefined) continue;
    const from = startedBy.get(edge.from);
    if (from === undefined || from === null) continue;
    const key = `${from}\u0000${edge.to}`;
    const found = into.get(key);
    if (found === undefined) into.set(key, { from, to: edge.to, inputs: [edge.from] });
    else found.inputs.push(edge.from);
  }
  const out = new Map<string, ImportedJoin>();
  for (const { from, to, inputs } of into.values()) if (inputs.length > 1 && !out.has(to)) out.set(to, { wait: "all", inputs, after: { from, group: from } });
  return out;
}
