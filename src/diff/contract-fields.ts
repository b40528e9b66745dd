/**
 * An edge's contract as the emitted JSON Schema sees it: the schema `seam compile` writes for the
 * edge (`contractSchema`), read back as the set of obligations it puts on an envelope. Each
 * obligation is a field path in Seam's syntax: `goal.out_of_scope` (the field is required where
 * its parent is present; a required array with at least one item), `decisions[].rationale` (every
 * decision has one). Obligations that the envelope schema itself already imposes are left out, so
 * writing `require goal` (which every envelope has) or spelling a contract differently but with
 * the same effect gives the same set.
 */
import type { CheckedGraph } from "../analysis/model.js";
import { envelopeSchema, type JsonSchema } from "../core/envelope-schema.js";
import { contractSchema } from "../emit/edge-schemas.js";

type Node = { readonly [keyword: string]: unknown };

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows a local `#/$defs/name` reference. */
function resolve(node: Node, root: Node): Node {
  const ref = node["$ref"];
  if (typeof ref !== "string") return node;
  const match = /^#\/\$defs\/([A-Za-z_]+)$/.exec(ref);
  const defs = root["$defs"];
  const target = match && isNode(defs) ? defs[match[1] as string] : undefined;
  return isNode(target) ? target : node;
}

/** Collects the obligations below `node` (at field path `path`, `""` at the root). */
function collect(node: Node, root: Node, path: string, out: Set<string>, depth: number): void {
  // The envelope schema is not recursive; the bound only guards against a future one that is.
  if (depth > 16) return;
  const here = resolve(node, root);
  const required = here["required"];
  if (Array.isArray(required)) for (const name of required) out.add(path === "" ? String(name) : `${path}.${String(name)}`);
  if (typeof here["minItems"] === "number" && here["minItems"] > 0) out.add(`${path}[]`);
  const properties = here["properties"];
  if (isNode(properties)) {
    for (const [name, child] of Object.entries(properties)) {
      if (isNode(child)) collect(child, root, path === "" ? name : `${path}.${name}`, out, depth + 1);
    }
  }
  const items = here["items"];
  if (isNode(items)) collect(items, root, `${path}[]`, out, depth + 1);
}

function obligations(schema: JsonSchema): Set<string> {
  const out = new Set<string>();
  collect(schema as Node, schema as Node, "", out, 0);
  return out;
}

const base = obligations(envelopeSchema);

/**
 * The obligations a contract adds to the envelope schema, sorted.
 *
 * @param graph - the checked graph the edge belongs to (error-free)
 * @param require - the edge's effective required paths (`CheckedEdge.require`)
 */
export function contractFields(graph: CheckedGraph, require: readonly string[]): readonly string[] {
  const fields = obligations(contractSchema(graph, require, "urn:seam:diff"));
  // A required array holds at least one item, so `p` with `p[]` is one obligation, written as `p`.
  return [...fields].filter((field) => !base.has(field) && !(field.endsWith("[]") && fields.has(field.slice(0, -2)))).sort();
}

/**
 * {@link contractFields} with a cache per distinct required set, since edges share a few
 * contracts and building a schema costs a copy of the envelope schema. The obligations do not
 * depend on the graph (only the schema's title and `hop.limit` cap do), so one cache serves both
 * versions of a diff.
 */
export function contractFieldsCache(): (graph: CheckedGraph, require: readonly string[]) => readonly string[] {
  const cache = new Map<string, readonly string[]>();
  return (graph, require) => {
    const key = require.join("\n");
    let fields = cache.get(key);
    if (fields === undefined) cache.set(key, (fields = contractFields(graph, require)));
    return fields;
  };
}
