/**
 * AutoGen GraphFlow: the JSON of a `DiGraph`'s `model_dump()` (`autogen_agentchat.teams`):
 * `nodes` maps each agent's name to `{ name, edges: [{ target, condition, activation_group,
 * activation_condition }], activation }`, and `default_start_node` may name the start. The
 * entries are the start node, else every node no edge enters (GraphFlow's own rule). A node
 * without edges ends the flow (a terminal, outcome guessed). GraphFlow takes every edge out of a
 * node whose condition holds, at once: several unconditional edges, or several with the same
 * string condition, are a fan-out (the condition is not written, and marked); an edge with a
 * condition of its own is a route (a string condition is the branch name). Edges into a node
 * that share an `activation_group` (by default the node's name) from several sources are a
 * join: `all` or `any` as their `activation_condition` says.
 */
import type { SourceFile } from "../core/source-file.js";
import { array, object, optionalText, readJson, readShape, ShapeError, text } from "./json-source.js";
import type { ImportedEdge, ImportedGraph, ImportedJoin, ImportResult } from "./model.js";

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
  for (const edge of raw) push(incoming, edge.to, edge);
  // Edges of one node taken together: all unconditional ones, or all with one string condition.
  const together = new Map<string, RawEdge[]>();
  const takenWith = (edge: RawEdge): string | undefined => (!edge.conditional ? `\u0000${edge.from}` : edge.condition === undefined ? undefined : `${edge.from}\u0000${edge.condition}`);
  for (const edge of raw) {
    const key = takenWith(edge);
    if (key !== undefined) push(together, key, edge);
  }
  const groupOf = (edge: RawEdge): string | undefined => {
    const key = takenWith(edge);
    return key !== undefined && (together.get(key) ?? []).length > 1 ? (edge.condition ?? edge.from) : undefined;
  };
  const edges: ImportedEdge[] = raw.map((edge) => {
    const group = groupOf(edge);
    return {
      from: edge.from,
      to: edge.to,
      ...(edge.conditional && group === undefined ? { conditional: edge.condition === undefined ? {} : { label: edge.condition } } : {}),
      ...(group === undefined
        ? {}
        : {
            parallel: {
              group,
              ...(edge.condition === undefined ? {} : { guess: `AutoGen GraphFlow takes these edges when the message of ${edge.from} matches ${JSON.stringify(edge.condition)}; a Seam fan-out states no condition` }),
            },
          }),
    };
  });
  // The fan-out edge that starts each node, when exactly one does.
  const startedBy = new Map<string, RawEdge | null>();
  for (const edge of raw) if (groupOf(edge) !== undefined) startedBy.set(edge.to, startedBy.has(edge.to) ? null : edge);
  const waits = new Map<string, ImportedJoin>();
  for (const [to, list] of incoming) {
    const byGroup = new Map<string, RawEdge[]>();
    for (const edge of list) push(byGroup, edge.group, edge);
    for (const members of byGroup.values()) {
      if (members.length < 2) continue;
      const inputs = members.map((e) => e.from);
      // One fan-out starts every input: the same node's edges, taken together.
      const starts = inputs.map((input) => startedBy.get(input));
      const first = starts[0];
      const one = first !== undefined && first !== null && starts.every((e) => e !== undefined && e !== null && e.from === first.from && groupOf(e) === groupOf(first));
      waits.set(to, {
        wait: members[0]?.activation === "any" ? "any" : "all",
        inputs,
        ...(one ? { after: { from: first.from, group: groupOf(first) as string } } : {}),
      });
      break;
    }
  }
  const start = optionalText(root["default_start_node"]);
  if (start !== undefined && !known.has(start)) throw new ShapeError("default_start_node", "the name of a node");
  const entries = start !== undefined ? [start] : ids.filter((id) => !incoming.has(id));
  const leaves = new Set(raw.map((e) => e.from));
  return {
    source: "AutoGen GraphFlow",
    name,
    nodes: ids.map((id) => {
      const join = waits.get(id);
      return { id, ends: leaves.has(id) ? [] : [{ name: "done" }], ...(join === undefined ? {} : { waits: join }) };
    }),
    edges,
    entries,
    ...(entries.length === 0 ? { entryGuess: "the graph has no start node and every node has an edge into it" } : {}),
    notes: [],
  };
}

function push<T>(map: Map<string, T[]>, key: string, item: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [item]);
  else list.push(item);
}
