/**
 * The JSON Schemas (draft 2020-12) derived from the envelope schema for one graph. A
 * contract is a distinct required-field set; on top of it every edge requires `hop.path` and
 * caps `hop.limit` at the graph's limit.
 * - {@link contractOverlaySchema}: what validators are compiled from. It refers to the envelope
 *   schema by `$ref` and adds only the contract, so the envelope's code is generated once and
 *   each distinct contract adds a few lines: emitted code grows with contracts, not with edges.
 * - {@link edgeSchema}: the self-contained schema written as a file per edge, for other tools:
 *   the envelope with the contract applied in place, and `from_agent`/`to_agent` ids and roles
 *   pinned by `const`. The runtime checks ids and roles itself (`unknown-edge`,
 *   `role-mismatch`), which is why the shared overlays leave them out. An edge's guard (with
 *   "no earlier route of the same agent matches"), its confidence floor and, leaving an approval
 *   gate, "not waiting_review" are stated too (`allOf`): JSON Schema can say all of them.
 */
import type { CheckedEdge, CheckedFloor, CheckedGraph, CheckedGuard } from "../analysis/model.js";
import { envelopeSchemaFor, envelopeSchemaIdFor, SCHEMA_ID_PREFIX, type JsonSchema } from "../core/envelope-schema.js";
import { EACH_ITEM, parseFieldPath } from "../runtime/field-path.js";

/** The base of the `$id`s of a graph's derived schemas: `urn:seam-handoff:schema:graph:<name>:`. */
export function graphSchemaBase(graphName: string): string {
  return `${SCHEMA_ID_PREFIX}graph:${encodeURIComponent(graphName)}:`;
}

type MutableSchema = { [keyword: string]: unknown };

function clone(schema: JsonSchema): MutableSchema {
  // A JSON round trip also unshares nodes the source reuses, so edits stay local.
  return JSON.parse(JSON.stringify(schema)) as MutableSchema;
}

function asSchema(value: unknown, what: string): MutableSchema {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`internal: ${what} is not a schema`);
  return value as MutableSchema;
}

/** Replaces a `$ref` child by a copy of its target, so it can be edited for this schema alone. */
function inlined(parent: MutableSchema, key: string, root: MutableSchema, what: string): MutableSchema {
  const child = asSchema(parent[key], what);
  const ref = child["$ref"];
  if (typeof ref !== "string") return child;
  const match = /^#\/\$defs\/([A-Za-z_]+)$/.exec(ref);
  const target = match ? asSchema(root["$defs"], "$defs")[match[1] as string] : undefined;
  const copy = clone(asSchema(target, ref));
  parent[key] = copy;
  return copy;
}

function addRequired(node: MutableSchema, name: string): void {
  const required = Array.isArray(node["required"]) ? (node["required"] as string[]) : [];
  if (!required.includes(name)) node["required"] = [...required, name];
}

/**
 * Makes `path` required in `root` (edited in place). Each name of the path becomes `required`
 * in its parent object, through arrays' `items`; a name followed by `[]` is not required itself
 * (`decisions[].rationale` asks every decision for a rationale and holds when there are none),
 * except at the end: `decisions[]` requires at least one decision, and so does `decisions`
 * (a required array must hold an item; `minItems: 1`).
 *
 * @throws Error when the path does not resolve in the envelope schema (a bug: the checker's
 * `unknown-field` rule refuses such graphs)
 */
export function requirePath(root: MutableSchema, path: string): void {
  const segments = parseFieldPath(path);
  if (segments === undefined) throw new Error(`internal: ${JSON.stringify(path)} is not a field path`);
  let node = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (segment === EACH_ITEM) {
      node = inlined(node, "items", root, path);
      continue;
    }
    const properties = asSchema(node["properties"], path);
    if (!Object.hasOwn(properties, segment)) throw new Error(`internal: ${JSON.stringify(path)} names no envelope field`);
    const next = segments[i + 1];
    if (next === undefined) {
      addRequired(node, segment);
      // A required array needs an item: `require decisions` is not met by `[]`.
      const leaf = inlined(properties, segment, root, path);
      if (leaf["type"] === "array") leaf["minItems"] = Math.max(1, typeof leaf["minItems"] === "number" ? leaf["minItems"] : 0);
    } else if (next !== EACH_ITEM) {
      addRequired(node, segment);
    } else if (i + 2 === segments.length) {
      addRequired(node, segment);
      const array = inlined(properties, segment, root, path);
      array["minItems"] = Math.max(1, typeof array["minItems"] === "number" ? array["minItems"] : 0);
    }
    if (i + 1 < segments.length) node = inlined(properties, segment, root, path);
  }
}

/** The node of `root` a path's segments lead to (local `$ref`s followed), read-only. */
function schemaAt(root: JsonSchema, segments: readonly string[]): JsonSchema | undefined {
  let node: unknown = root;
  for (const segment of segments) {
    if (typeof node !== "object" || node === null) return undefined;
    const current = node as MutableSchema;
    node = segment === EACH_ITEM ? current["items"] : (current["properties"] as MutableSchema | undefined)?.[segment];
    const ref = typeof node === "object" && node !== null ? (node as MutableSchema)["$ref"] : undefined;
    if (typeof ref === "string") node = (root["$defs"] as MutableSchema | undefined)?.[ref.replace("#/$defs/", "")];
  }
  return typeof node === "object" && node !== null ? (node as JsonSchema) : undefined;
}

function overlayChild(node: MutableSchema, name: string): MutableSchema {
  const properties = (node["properties"] ??= {}) as MutableSchema;
  const existing = properties[name];
  if (typeof existing === "object" && existing !== null) return existing as MutableSchema;
  const child: MutableSchema = {};
  properties[name] = child;
  return child;
}

/** `name` required in the overlay node `node`, unless the envelope's node there requires it already. */
function overlayRequired(node: MutableSchema, name: string, envelopeNode: JsonSchema | undefined): void {
  const stated = envelopeNode?.["required"];
  if (!(Array.isArray(stated) && stated.includes(name))) addRequired(node, name);
}

/** At least one item in the overlay array node `array`, unless the envelope's array there asks it already. */
function overlayNonEmpty(array: MutableSchema, envelopeArray: JsonSchema | undefined): void {
  const stated = envelopeArray?.["minItems"];
  if (!(typeof stated === "number" && stated >= 1)) array["minItems"] = 1;
}

/**
 * Adds `path` to an overlay schema (edited in place), with the same meaning as
 * {@link requirePath}, stating only what the envelope schema does not: no `type` (the
 * envelope's `$ref` checks every type, and `required`, `properties` and `items` apply only to
 * values of their type), no `required` name or `minItems` the envelope has there already. So a
 * validator reports a fault once, where a restated `type: "object"` on `decisions[]` made a
 * flood of 10^5 bad decisions 2 * 10^5 errors. Leaves are `true` so that strict mode sees every
 * required name among `properties`; {@link pruned} drops the nodes that end up stating nothing.
 */
function overlayRequire(root: MutableSchema, path: string, envelope: JsonSchema): void {
  const segments = parseFieldPath(path);
  if (segments === undefined) throw new Error(`internal: ${JSON.stringify(path)} is not a field path`);
  let node = root;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    const next = segments[i + 1];
    if (segment === EACH_ITEM) {
      if (next === undefined) break;
      node = (node["items"] ??= {}) as MutableSchema;
      continue;
    }
    const here = schemaAt(envelope, segments.slice(0, i));
    if (next === undefined) {
      const properties = (node["properties"] ??= {}) as MutableSchema;
      const leaf = schemaAt(envelope, segments);
      if (leaf?.["type"] === "array") overlayNonEmpty(overlayChild(node, segment), leaf);
      else properties[segment] ??= true;
      overlayRequired(node, segment, here);
    } else if (next === EACH_ITEM) {
      const array = overlayChild(node, segment);
      if (i + 2 === segments.length) {
        overlayRequired(node, segment, here);
        overlayNonEmpty(array, schemaAt(envelope, segments.slice(0, i + 1)));
      }
      node = array;
    } else {
      overlayRequired(node, segment, here);
      node = overlayChild(node, segment);
    }
  }
}

/**
 * `node` without the `properties` and `items` that state nothing (`true` leaves stay where a
 * `required` names them); undefined when nothing is left to state. An empty `items` would still
 * make a validator walk every item.
 */
function pruned(node: MutableSchema): MutableSchema | undefined {
  const out: MutableSchema = {};
  const required = Array.isArray(node["required"]) ? (node["required"] as string[]) : [];
  for (const [keyword, value] of Object.entries(node)) {
    if (keyword === "properties") {
      const kept: MutableSchema = {};
      for (const [name, child] of Object.entries(value as MutableSchema)) {
        const left = child === true ? (required.includes(name) ? true : undefined) : pruned(child as MutableSchema);
        if (left !== undefined) kept[name] = left;
      }
      if (Object.keys(kept).length > 0) out[keyword] = kept;
    } else if (keyword === "items") {
      const left = pruned(value as MutableSchema);
      if (left !== undefined) out[keyword] = left;
    } else out[keyword] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The overlay schema of one contract, compiled into validators: `$ref` to the envelope schema,
 * plus `required` for every path of `require`, `hop.path` required, and `hop.limit` at most the
 * graph's hop limit, stating nothing the envelope schema states (see `overlayRequire`) but
 * `hop.limit`'s type and cap: the runtimes report a fault once by that (`STATED_TWICE` in
 * src/runtime/schema-reasons.ts). It only makes sense with the envelope schema registered beside it.
 *
 * @param graph - the checked graph (error-free)
 * @param require - the contract's required field paths (sorted)
 * @param id - the schema's `$id`
 */
export function contractOverlaySchema(graph: CheckedGraph, require: readonly string[], id: string): JsonSchema {
  const schema: MutableSchema = { $id: id, $ref: envelopeSchemaIdFor(graph.envelope) };
  const envelope = envelopeSchemaFor(graph.envelope);
  const hop = overlayChild(schema, "hop");
  overlayRequired(hop, "path", schemaAt(envelope, ["hop"]));
  const hopFields = (hop["properties"] ??= {}) as MutableSchema;
  hopFields["path"] = true;
  // The one value both schemas state, type and cap (STATED_TWICE): its `type` lets the generated
  // code test an integer first, as every envelope has one.
  const limit = graph.hopLimit.value;
  if (limit !== undefined) hopFields["limit"] = { type: "integer", maximum: limit };
  for (const path of require) overlayRequire(schema, path, envelope);
  return pruned(schema) as JsonSchema;
}

/**
 * The self-contained schema of one contract: the envelope, plus `required` for every path of `require`,
 * `hop.path` required, and `hop.limit` at most `hopLimit` when the graph has one.
 *
 * @param graph - the checked graph (error-free)
 * @param require - the contract's required field paths (sorted)
 * @param id - the schema's `$id`
 */
export function contractSchema(graph: CheckedGraph, require: readonly string[], id: string): JsonSchema {
  const schema = clone(envelopeSchemaFor(graph.envelope));
  schema["$id"] = id;
  schema["title"] = `Seam handoff envelope ${graph.envelope.major}.${graph.envelope.minor}, graph ${graph.name}, contract: ${require.join(", ") || "(none)"}`;
  const properties = asSchema(schema["properties"], "envelope");
  const hop = inlined(properties, "hop", schema, "hop");
  addRequired(hop, "path");
  const limit = graph.hopLimit.value;
  if (limit !== undefined) asSchema(asSchema(hop["properties"], "hop")["limit"], "hop.limit")["maximum"] = limit;
  for (const path of require) requirePath(schema, path);
  return schema;
}

/**
 * The schema of one edge: its contract schema with `from_agent` and `to_agent` closed over the
 * graph's agents (ids and roles as `const`).
 *
 * @param graph - the checked graph (error-free)
 * @param edge - one of `graph.edges`
 * @param id - the schema's `$id`
 */
export function edgeSchema(graph: CheckedGraph, edge: CheckedEdge, id: string): JsonSchema {
  const schema = contractSchema(graph, edge.require, id) as MutableSchema;
  schema["title"] = `Seam handoff envelope ${graph.envelope.major}.${graph.envelope.minor}, graph ${graph.name}, ${edge.kind} ${edge.from} -> ${edge.to}`;
  const properties = asSchema(schema["properties"], "envelope");
  for (const [field, agentId] of [
    ["from_agent", edge.from],
    ["to_agent", edge.to],
  ] as const) {
    const agent = graph.agents.find((candidate) => candidate.id === agentId);
    if (agent === undefined) throw new Error(`internal: edge names unknown agent ${agentId}`);
    const ref = inlined(properties, field, schema, field);
    const fields = asSchema(ref["properties"], field);
    fields["id"] = { type: "string", const: agent.id };
    fields["role"] = { const: agent.role };
  }
  const leavesGate = edge.gate === true || graph.agents.some((a) => a.id === edge.from && a.gate === true);
  const rules = [
    ...routeSchemas(graph, edge),
    ...(edge.minConfidence === undefined ? [] : [floorSchema(edge.minConfidence)]),
    // What is still waiting for review cannot leave a gate.
    ...(leavesGate ? [{ type: "object", properties: { status: { type: "string", not: { const: "waiting_review" } } } }] : []),
  ];
  if (rules.length > 0) schema["allOf"] = rules;
  return schema;
}

/**
 * What a guard asks of an envelope, as JSON Schema: `status is a, b` is an `enum` on `status`;
 * `confidence >= t` (every decision at least t sure) a `minimum` on each decision's confidence;
 * `confidence < t` (some decision below t) a `contains`. All conditions hold (`allOf`).
 */
export function guardSchema(guard: CheckedGuard): JsonSchema {
  return {
    type: "object",
    allOf: guard.conditions.map((c): JsonSchema => {
      if (c.subject !== "confidence") return { type: "object", required: [c.subject], properties: { [c.subject]: { type: "string", enum: [...c.values] } } };
      const bound: JsonSchema =
        c.operator === ">=" ? { minimum: c.value } : c.operator === ">" ? { exclusiveMinimum: c.value } : c.operator === "<=" ? { maximum: c.value } : { exclusiveMaximum: c.value };
      const confidence = { type: "object", required: ["confidence"], properties: { confidence: { type: "number", ...bound } } };
      const decisions: JsonSchema =
        c.operator === ">=" || c.operator === ">" ? { type: "array", minItems: 1, items: confidence } : { type: "array", contains: confidence };
      return { type: "object", required: ["decisions"], properties: { decisions } };
    }),
  };
}

/**
 * The route conditions of a guarded edge: its own guard, and no earlier route of the same router
 * taking the envelope, which is its guard matching and its floor holding (routes are tried in
 * source order; `otherwise` is "none of the others"). Empty for an edge without a guard.
 */
function routeSchemas(graph: CheckedGraph, edge: CheckedEdge): JsonSchema[] {
  if (edge.guard === undefined) return [];
  const router = graph.edges.filter((e) => e.from === edge.from && e.guard !== undefined && !e.guard.otherwise);
  const before = edge.guard.otherwise ? router : router.filter((e) => e.index < edge.index);
  const out: JsonSchema[] = edge.guard.otherwise ? [] : [guardSchema(edge.guard)];
  // An earlier route takes an envelope when its guard matches and its floor holds.
  const takes = (e: CheckedEdge): JsonSchema =>
    e.minConfidence === undefined ? guardSchema(e.guard as CheckedGuard) : { type: "object", allOf: [guardSchema(e.guard as CheckedGuard), floorSchema(e.minConfidence)] };
  if (before.length > 0) out.push({ type: "object", not: { anyOf: before.map(takes) } });
  return out;
}

/** `min_confidence`: a `minimum` on the confidence of every decision, or of the decisions it names (`if`/`then`). */
export function floorSchema(floor: CheckedFloor): JsonSchema {
  const confidence = { type: "object", properties: { confidence: { type: "number", minimum: floor.value } } };
  const items =
    floor.decisions.length === 0
      ? confidence
      : { type: "object", if: { type: "object", required: ["id"], properties: { id: { type: "string", enum: [...floor.decisions] } } }, then: confidence };
  return { type: "object", properties: { decisions: { type: "array", items } } };
}
