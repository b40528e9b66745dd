/**
 * The rows of the field table in docs/envelope.md, derived from the envelope schema, so the page
 * cannot name a field the schema lacks or miss one it has.
 */
import { envelopeSchema, type JsonSchema } from "../../src/core/envelope-schema.js";

/** One field of the envelope: its path (`a.b`, `a[].b`), its type, whether its parent requires it, and what it means. */
export interface EnvelopeField {
  readonly path: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
}

const defs = (envelopeSchema["$defs"] ?? {}) as Record<string, JsonSchema>;

function resolve(node: JsonSchema): JsonSchema {
  const ref = node["$ref"];
  if (typeof ref !== "string") return node;
  const target = defs[ref.replace("#/$defs/", "")];
  if (target === undefined) throw new Error(`unknown $ref ${ref}`);
  return { ...target, ...node, $ref: undefined };
}

function typeOf(node: JsonSchema): string {
  const values = node["enum"];
  if (Array.isArray(values)) return `one of ${values.map((v) => `\`${String(v)}\``).join(", ")}`;
  const type = String(node["type"]);
  if (type === "array") {
    const items = resolve((node["items"] ?? {}) as JsonSchema);
    const min = typeof node["minItems"] === "number" ? `, at least ${node["minItems"]}` : "";
    return items["type"] === "object" ? `array of objects${min}` : `array of ${typeOf(items)}s${min}`;
  }
  if (type === "string" && typeof node["format"] === "string") return `string (${node["format"]})`;
  return type;
}

/** Every field of the envelope schema, depth first in the schema's order. */
export function envelopeFields(node: JsonSchema = envelopeSchema, prefix = ""): EnvelopeField[] {
  const properties = (node["properties"] ?? {}) as Record<string, JsonSchema>;
  const required = new Set((node["required"] ?? []) as string[]);
  const fields: EnvelopeField[] = [];
  for (const [name, raw] of Object.entries(properties)) {
    const field = resolve(raw);
    const path = `${prefix}${name}`;
    fields.push({ path, type: typeOf(field), required: required.has(name), description: String(field["description"] ?? "") });
    if (field["type"] === "object") fields.push(...envelopeFields(field, `${path}.`));
    const items = field["type"] === "array" ? resolve((field["items"] ?? {}) as JsonSchema) : undefined;
    if (items?.["type"] === "object") fields.push(...envelopeFields(items, `${path}[].`));
  }
  return fields;
}

/** The table row docs/envelope.md shows for `field`. */
export function fieldRow(field: EnvelopeField): string {
  return `| \`${field.path}\` | ${field.type} | ${field.required ? "yes" : "no"} | ${field.description} |`;
}
