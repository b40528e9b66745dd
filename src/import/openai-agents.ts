/**
 * OpenAI Agents SDK: the JSON the helper (`helpers/openai_agents_dump.py`, `openai-agents-dump.mjs`)
 * writes from a starting agent, following every agent's `handoffs`:
 *
 *     { "seam_dump": "openai-agents/1", "start": "Triage",
 *       "agents": [ { "name": "Triage", "handoffs": [ { "agent": "Billing", "input_schema": {...} } ] } ] }
 *
 * A handoff hands the whole conversation to the other agent, so every agent is a `peer` and every
 * handoff a `transfer` (exact). The starting agent is the entry. Any agent may end the run with
 * its final output: each gets a terminal `final_output` (outcome guessed). A handoff's
 * `input_type` schema (`input_schema`) becomes `require` fields where its properties are envelope
 * fields; the others travel as artefacts, so `artefacts` is required and the guess marked.
 */
import type { SourceFile } from "../core/source-file.js";
import { resolveFieldPath } from "../analysis/field-paths.js";
import { array, object, readJson, readShape, ShapeError, text } from "./json-source.js";
import type { ImportedEdge, ImportedGraph, ImportResult } from "./model.js";

/** The `seam_dump` value the helpers write. */
export const OPENAI_AGENTS_DUMP = "openai-agents/1";
const HINT = "give the JSON that seam import writes from module:attribute (see docs/import.md)";

/** Reads an Agents SDK dump. */
export function importOpenAiAgents(file: SourceFile, name: string): ImportResult {
  const json = readJson(file, "agents dump");
  if (!json.ok) return json;
  const shaped = readShape(() => fromJson(json.value, name), HINT);
  return shaped.ok ? { ok: true, graph: shaped.value } : shaped;
}

/** What an edge needs from a handoff's input schema: envelope fields, and the names that are not. */
export interface HandoffFields {
  readonly envelope: readonly string[];
  readonly other: readonly string[];
}

/** Splits the properties of a JSON Schema object into envelope fields and other names. */
export function handoffFields(schema: unknown): HandoffFields {
  const envelope: string[] = [];
  const other: string[] = [];
  if (typeof schema !== "object" || schema === null) return { envelope, other };
  const record = schema as Record<string, unknown>;
  const properties = record["properties"];
  if (typeof properties !== "object" || properties === null) return { envelope, other };
  const required = Array.isArray(record["required"]) ? (record["required"] as unknown[]) : Object.keys(properties);
  for (const field of Object.keys(properties).sort()) {
    if (!required.includes(field)) continue;
    (/^[a-z_][a-z0-9_]*$/.test(field) && resolveFieldPath([field]) === undefined ? envelope : other).push(field);
  }
  return { envelope, other };
}

function fromJson(value: unknown, name: string): ImportedGraph {
  const root = object(value, "the dump");
  if (root["seam_dump"] !== OPENAI_AGENTS_DUMP) throw new ShapeError("seam_dump", JSON.stringify(OPENAI_AGENTS_DUMP));
  const start = text(root["start"], "start");
  const agents = array(root["agents"], "agents").map((raw, i) => object(raw, `agents[${i}]`));
  const names = agents.map((agent, i) => text(agent["name"], `agents[${i}].name`));
  const known = new Set(names);
  if (!known.has(start)) throw new ShapeError("start", "the name of one of the agents");
  const edges: ImportedEdge[] = [];
  agents.forEach((agent, i) => {
    array(agent["handoffs"] ?? [], `agents[${i}].handoffs`).forEach((raw, j) => {
      const handoff = object(raw, `agents[${i}].handoffs[${j}]`);
      const to = text(handoff["agent"], `agents[${i}].handoffs[${j}].agent`);
      if (!known.has(to)) throw new ShapeError(`agents[${i}].handoffs[${j}].agent`, "the name of one of the agents");
      const fields = handoffFields(handoff["input_schema"]);
      const require = fields.other.length > 0 ? [...fields.envelope, "artefacts"] : fields.envelope;
      const guess = `the handoff's input_type needs ${fields.other.join(", ")}, which the envelope has no field for: they travel as an artefact`;
      edges.push({
        from: names[i] as string,
        to,
        kind: "transfer",
        ...(require.length > 0 ? { require } : {}),
        ...(fields.other.length > 0 ? { requireGuess: guess } : {}),
      });
    });
  });
  const nodes = names.map((id) => ({ id, role: "peer" as const, ends: [{ name: "final_output" }] }));
  return { source: "the OpenAI Agents SDK", name, nodes, edges, entries: [start], notes: [] };
}
