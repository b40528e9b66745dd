/**
 * The helpers `seam import --run <format> module:attribute` runs with the user's own Python or
 * Node (the only code `seam import` ever runs, and only with `--run`): each loads the user's
 * module, takes the attribute and prints the graph JSON the importer reads. They are passed to
 * the interpreter as a program argument (`python -c`, `node --input-type=module -e`), so nothing
 * is written to disk. A module path ending in `.js`, `.mjs` or `.cjs` runs with Node, anything
 * else is a Python module name (`app.graph:graph`).
 */

/** Which runtime a `module:attribute` spec needs. */
export function helperRuntime(spec: string): "python" | "node" {
  const module = spec.slice(0, spec.lastIndexOf(":"));
  return /\.(?:m|c)?js$/.test(module) ? "node" : "python";
}

/** Splits `module:attribute`; undefined when either part is missing. */
export function splitSpec(spec: string): { module: string; attribute: string } | undefined {
  const at = spec.lastIndexOf(":");
  if (at <= 0 || at === spec.length - 1) return undefined;
  return { module: spec.slice(0, at), attribute: spec.slice(at + 1) };
}

const PYTHON_LOAD = `
import importlib, json, os, sys
sys.path.insert(0, os.getcwd())
spec = sys.argv[1]
module_name, _, attribute = spec.rpartition(":")
value = importlib.import_module(module_name)
for part in attribute.split("."):
    value = getattr(value, part)
`;

const NODE_LOAD = `
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";
const [modulePath, attribute] = process.argv.slice(-2);
let value = await import(pathToFileURL(resolve(modulePath)).href);
for (const part of attribute.split(".")) value = value[part];
`;

/**
 * Python: a compiled LangGraph graph (or a `StateGraph`, compiled first) as `get_graph().to_json()`,
 * plus `seam_send`: the nodes whose conditional-edge function names `Send` in its code (read
 * from the function's code object, never called).
 */
export const LANGGRAPH_PYTHON = `${PYTHON_LOAD}
if not hasattr(value, "get_graph") and hasattr(value, "compile"):
    value = value.compile()
dump = value.get_graph().to_json()
def names(code):
    found = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            found |= names(const)
    return found
sends = []
for source, specs in getattr(getattr(value, "builder", None), "branches", {}).items():
    for spec in specs.values():
        func = getattr(spec.path, "func", None) or getattr(spec.path, "afunc", None)
        if getattr(func, "__code__", None) is not None and "Send" in names(func.__code__) and source not in sends:
            sends.append(source)
dump["seam_send"] = sends
print(json.dumps(dump, default=str))
`;

/** Node: the same for a compiled LangGraph.js graph (`getGraph().toJSON()`; `Send` found in the function's source text). */
export const LANGGRAPH_NODE = `${NODE_LOAD}
if (typeof value.getGraphAsync !== "function" && typeof value.getGraph !== "function" && typeof value.compile === "function") value = value.compile();
const graph = typeof value.getGraphAsync === "function" ? await value.getGraphAsync() : await value.getGraph();
const dump = graph.toJSON();
const sends = [];
for (const [source, specs] of Object.entries(value.builder?.branches ?? {})) {
  for (const spec of Object.values(specs)) {
    const func = spec.path?.func;
    if (typeof func === "function" && /\\bSend\\s*\\(/.test(Function.prototype.toString.call(func)) && !sends.includes(source)) sends.push(source);
  }
}
dump.seam_send = sends;
process.stdout.write(JSON.stringify(dump));
`;

/** Python: the agents reachable by handoffs from a starting `agents.Agent`, in the seam dump format. */
export const OPENAI_AGENTS_PYTHON = `${PYTHON_LOAD}
from agents import Agent, Handoff
agents, order, queue = {}, [], [value]
while queue:
    agent = queue.pop(0)
    if agent.name in agents:
        continue
    entry = {"name": agent.name, "handoffs": []}
    agents[agent.name] = entry
    order.append(entry)
    for h in agent.handoffs:
        if isinstance(h, Handoff):
            target = h._agent_ref() if getattr(h, "_agent_ref", None) is not None else None
            entry["handoffs"].append({"agent": h.agent_name, "input_schema": h.input_json_schema or None})
        else:
            target = h
            entry["handoffs"].append({"agent": h.name, "input_schema": None})
        if target is not None:
            queue.append(target)
print(json.dumps({"seam_dump": "openai-agents/1", "start": value.name, "agents": order}))
`;

/** Node: the same for `@openai/agents` (`Handoff.agent`, `Handoff.inputJsonSchema`). */
export const OPENAI_AGENTS_NODE = `${NODE_LOAD}
const agents = new Map();
const order = [];
const queue = [value];
while (queue.length > 0) {
  const agent = queue.shift();
  if (agents.has(agent.name)) continue;
  const entry = { name: agent.name, handoffs: [] };
  agents.set(agent.name, entry);
  order.push(entry);
  for (const h of agent.handoffs ?? []) {
    const isHandoff = typeof h.agentName === "string" && h.agent !== undefined;
    const target = isHandoff ? h.agent : h;
    const schema = isHandoff && h.inputJsonSchema && Object.keys(h.inputJsonSchema.properties ?? {}).length > 0 ? h.inputJsonSchema : null;
    entry.handoffs.push({ agent: target.name, input_schema: schema });
    queue.push(target);
  }
}
process.stdout.write(JSON.stringify({ seam_dump: "openai-agents/1", start: value.name, agents: order }));
`;
