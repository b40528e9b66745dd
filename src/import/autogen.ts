/**
 * AutoGen GraphFlow: the JSON of a `DiGraph`'s `model_dump()` (`autogen_agentchat.teams`):
 * `nodes` maps each agent's name to `{ name, edges: [{ target, condition, activation_group,
 * activation_condition }], activation }`, and `default_start_node` may name the start. The
 * entries are the start node, else every node no edge enters (GraphFlow's own rule). A node
 * without edges ends the flow (a terminal, outcome guessed). An edge with a `condition` is a
 * route (a string condition is the branch name). Edges into a node whose activation is `all`
 * from several sources, or that share an `activation_group`, make a join: written as plain edges
 * marked `fan-out`.
 */
import type { SourceFile } from "../core/source-file.js";
import { array, object, optionalText, readJson, readShape, ShapeError, text } from "./json-source.js";
import type { ImportedEdge, ImportedGraph, ImportResult } from "./model.js";

const HINT = "give the JSON of DiGraph.model_dump() (for example json.dumps(builder.build().model_dump()))";

/** Reads an AutoGen `DiGraph` dump. */
export function importAutoGen(file: SourceFile, name: string): ImportResult {
  const json = readJson(file, "DiGraph dump");
  if (!json.ok) return json;
  const shaped = readShape(() => fromJson(json.value, name), HINT);
  return shaped.ok ? { ok: true, graph: shaped.value } : shaped;
}

interface RawEdge {
  readonly from: string;
  readonly to: string;
  readonly condition?: string;
  readonly conditional: boolean;
  readonly group: string;
  readonly activation: string;
}

function fromJson(value: unknown, name: string): ImportedGraph {
  const root = object(value, "the dump");
  const nodes = object(root["nodes"], "nodes");
  const ids = Object.keys(nodes);
  const known = new Set(ids);
  const raw: RawEdge[] = [];
  const activation = new Map<string, string>();
  for (const id of ids) {
    const node = object(nodes[id], `nodes.${id}`);
    activation.set(id, optionalText(node["activation"]) ?? "all");
    array(node["edges"] ?? [], `nodes.${id}.edges`).forEach((item, i) => {
      const edge = object(item, `nodes.${id}.edges[${i}]`);
      const to = text(edge["target"], `nodes.${id}.edges[${i}].target`);
      if (!known.has(to)) throw new ShapeError(`nodes.${id}.edges[${i}].target`, "the name of a node");
      const condition = optionalText(edge["condition"]);
      raw.push({
        from: id,
        to,
        ...(condition === undefined ? {} : { condition }),
        conditional: edge["condition"] !== null && edge["condition"] !== undefined,
        group: optionalText(edge["activation_group"]) ?? to,
        activation: optionalText(edge["activation_condition"]) ?? activation.get(to) ?? "all",
      });
    });
  }
  const incoming = new Map<string, RawEdge[]>();
  for (const edge of raw) incoming.set(edge.to, [...(incoming.get(edge.to) ?? []), edge]);
  const edges: ImportedEdge[] = raw.map((edge) => {
    const group = (incoming.get(edge.to) ?? []).filter((e) => e.group === edge.group);
    const join = group.length > 1 && edge.activation === "all";
    const fanOut = join
      ? `AutoGen waits for all of ${group.map((e) => e.from).join(", ")} (activation group ${edge.group}) before ${edge.to} runs: a join`
      : undefined;
    return {
      from: edge.from,
      to: edge.to,
      ...(edge.conditional ? { conditional: edge.condition === undefined ? {} : { label: edge.condition } } : {}),
      ...(fanOut === undefined ? {} : { fanOut }),
    };
  });
  const start = optionalText(root["default_start_node"]);
  if (start !== undefined && !known.has(start)) throw new ShapeError("default_start_node", "the name of a node");
  const entries = start !== undefined ? [start] : ids.filter((id) => !incoming.has(id));
  const leaves = new Set(raw.map((e) => e.from));
  return {
    source: "AutoGen GraphFlow",
    name,
    nodes: ids.map((id) => ({ id, ends: leaves.has(id) ? [] : [{ name: "done" }] })),
    edges,
    entries,
    ...(entries.length === 0 ? { entryGuess: "the graph has no start node and every node has an edge into it" } : {}),
    notes: [],
  };
}
