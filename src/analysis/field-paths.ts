/**
 * Field paths (`decisions[].rationale`) resolved against the envelope schema
 * (`src/core/envelope-schema.ts`): a name steps into an object's `properties`, `[]` steps into an
 * array's `items`, and local `$ref`s (`#/$defs/...`) are followed on the way.
 */
import { envelopeSchema, type JsonSchema } from "../core/envelope-schema.js";

/** How a path failed to resolve. */
export interface FieldPathProblem {
  /** Index of the first segment that does not resolve. */
  readonly segment: number;
  /** Why, in words: "'foo' is not a field of goal", "budget is not an array". */
  readonly reason: string;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function dereference(node: JsonSchema, root: JsonSchema): JsonSchema {
  let current = node;
  // Chains of $ref are followed a bounded number of times, so a cyclic $ref cannot hang.
  for (let i = 0; i < 16 && typeof current["$ref"] === "string"; i++) {
    const ref = current["$ref"] as string;
    if (!ref.startsWith("#/")) return current;
    let target: unknown = root;
    for (const part of ref.slice(2).split("/")) {
      target = isSchema(target) ? target[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
    }
    if (!isSchema(target)) return current;
    current = target;
  }
  return current;
}

function properties(node: JsonSchema): Record<string, unknown> | undefined {
  const props = node["properties"];
  return isSchema(props) ? (props as Record<string, unknown>) : undefined;
}

/**
 * Resolves `segments` against `schema` (default: the envelope 1.3 schema).
 *
 * @returns `undefined` when the path names a field of the schema, else the first failing segment
 */
export function resolveFieldPath(
  segments: readonly string[],
  schema: JsonSchema = envelopeSchema,
): FieldPathProblem | undefined {
  let node = dereference(schema, schema);
  let where = "the envelope";
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (segment === "[]") {
      if (node["type"] !== "array" || !isSchema(node["items"])) {
        return { segment: i, reason: `${where} is not an array` };
      }
      node = dereference(node["items"], schema);
      where = `an item of ${where === "the envelope" ? "it" : where}`;
      continue;
    }
    const props = properties(node);
    const child = props && Object.hasOwn(props, segment) ? props[segment] : undefined;
    if (!isSchema(child)) {
      const shape = props ? `not a field of ${where}` : `not possible: ${where} has no fields`;
      return { segment: i, reason: `'${segment}' is ${shape}` };
    }
    node = dereference(child, schema);
    where = segments.slice(0, i + 1).join(".").replace(/\.\[\]/g, "[]");
  }
  return undefined;
}

/** Joins segments back into the written form: `["decisions", "[]", "rationale"]` -> `decisions[].rationale`. */
export function formatFieldPath(segments: readonly string[]): string {
  let text = "";
  for (const segment of segments) text += segment === "[]" ? "[]" : text === "" ? segment : `.${segment}`;
  return text;
}

/**
 * Every path the schema allows, in schema order (`goal`, `goal.statement`, `decisions`,
 * `decisions[]`, `decisions[].rationale`...). Used for "did you mean" suggestions; a cyclic
 * `$ref` is not followed twice on one path.
 */
export function listFieldPaths(schema: JsonSchema = envelopeSchema): string[] {
  const out: string[] = [];
  const visit = (node: JsonSchema, prefix: readonly string[], seen: ReadonlySet<JsonSchema>): void => {
    const resolved = dereference(node, schema);
    if (seen.has(resolved)) return;
    const inner = new Set(seen).add(resolved);
    if (prefix.length > 0) out.push(formatFieldPath(prefix));
    const props = properties(resolved);
    if (props) {
      for (const [name, child] of Object.entries(props)) {
        if (isSchema(child)) visit(child, [...prefix, name], inner);
      }
    }
    if (resolved["type"] === "array" && isSchema(resolved["items"])) visit(resolved["items"], [...prefix, "[]"], inner);
  };
  visit(schema, [], new Set());
  return out;
}

/** What the envelope schema says about one field: its `description` and the kind of value it holds. */
export interface FieldInfo {
  /** The schema's `description` of the field (the one written beside a `$ref` first), if any. */
  readonly description?: string;
  /** `string`, `integer`, `array`, `object`, `one of "a", "b"`...; `value` when the schema names no type. */
  readonly type: string;
}

/**
 * The schema's own words for the field at `segments`, or `undefined` when the path names no field
 * (see {@link resolveFieldPath}). JSON Schema draft 2020-12 lets `description` stand beside a
 * `$ref`; that one wins over the referenced schema's.
 */
export function describeField(segments: readonly string[], schema: JsonSchema = envelopeSchema): FieldInfo | undefined {
  if (segments.length === 0 || resolveFieldPath(segments, schema) !== undefined) return undefined;
  let node = dereference(schema, schema);
  let description: unknown;
  for (const segment of segments) {
    const child = segment === "[]" ? node["items"] : properties(node)?.[segment];
    if (!isSchema(child)) return undefined;
    node = dereference(child, schema);
    description = child["description"] ?? node["description"];
  }
  const enumeration = node["enum"];
  const type = Array.isArray(enumeration)
    ? `one of ${enumeration.map((v) => JSON.stringify(v)).join(", ")}`
    : typeof node["type"] === "string"
      ? node["type"]
      : "value";
  return typeof description === "string" ? { description, type } : { type };
}

/** Splits a written path into segments: `decisions[].rationale` -> `["decisions", "[]", "rationale"]`. */
export function splitFieldPath(text: string): string[] {
  return text.split(/\.|(?=\[\])|(?<=\[\])/).filter(Boolean);
}
