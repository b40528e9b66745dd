/**
 * The optional pydantic v2 models of one graph, `<graph>_models.py` (`seam compile --target
 * python --pydantic`): one strict model per edge (`DelegateEnvelope__triage__billing`), its
 * fields those of the edge's schema (the edge's required fields required, `from_agent` and
 * `to_agent` fixed to the edge's agents), nested objects as models shared by shape, every model
 * `strict=True, extra="forbid"`. Usable where a framework wants a pydantic type, such as an
 * OpenAI Agents SDK handoff's `input_type`.
 *
 * A model states the schema's shape and its simple bounds (lengths, minimum and maximum, item
 * counts, patterns); `format`s and the conditional rules of a contract are left to `accept()`,
 * which checks every one of them: a model is the producer's typed front, never the ingest check.
 * An optional field is `T | None = None`, and `to_envelope(model)` leaves unset and None fields
 * out, as a strict tool schema sends `null` for a field the model omits.
 */
import { createHash } from "node:crypto";
import type { CheckedGraph } from "../../analysis/model.js";
import type { JsonSchema } from "../../core/envelope-schema.js";
import { packageVersion } from "../../core/package-files.js";
import { edgeSchema } from "../edge-schemas.js";
import { pyLiteral, pyString } from "./literal.js";
import { edgeEnvelopeClassName, edgeValidatorName } from "../validator-names.js";

type Schema = JsonSchema | boolean;

/** The pydantic release the models are written for (the `pydantic` extra of seam-handoff pins it). */
export const PYDANTIC_VERSION = "2.14.4";

function camel(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== "")
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
}

/** A JavaScript `u`-mode pattern of Seam's subset, for pydantic's Rust regex engine (`\d` is Unicode-wide there). */
function rustPattern(source: string): string {
  return source.replace(/\\d/g, "[0-9]");
}

/** Builds the model classes of several schemas into one module, sharing equal shapes. */
class ModelWriter {
  private readonly classes: string[] = [];
  private readonly byShape = new Map<string, string>();
  private readonly taken = new Set<string>();

  add(schema: JsonSchema, name: string, suffix: string): string {
    const defs = (schema["$defs"] ?? {}) as Record<string, JsonSchema>;
    const resolve = (node: Schema): { node: Schema; def?: string } => {
      if (typeof node !== "object") return { node };
      const ref = node["$ref"];
      if (typeof ref !== "string") return { node };
      const def = ref.replace(/^#\/\$defs\//, "");
      const target = defs[def];
      if (target === undefined) throw new Error(`internal: ${ref} does not resolve`);
      return { node: target, def };
    };
    /** The field's Python type and its Field() bounds. */
    const fieldOf = (raw: Schema, hint: string): { type: string; bounds: string[] } => {
      const { node, def } = resolve(raw);
      if (typeof node !== "object") return { type: "object", bounds: [] };
      if (node["const"] !== undefined) return { type: `Literal[${pyString(String(node["const"]))}]`, bounds: [] };
      if (Array.isArray(node["enum"])) return { type: `Literal[${(node["enum"] as unknown[]).map((v) => pyString(String(v))).join(", ")}]`, bounds: [] };
      const bounds: string[] = [];
      const bound = (keyword: string, argument: string) => {
        if (typeof node[keyword] === "number") bounds.push(`${argument}=${pyLiteral(node[keyword])}`);
      };
      switch (node["type"]) {
        case "string":
          bound("minLength", "min_length");
          bound("maxLength", "max_length");
          if (typeof node["pattern"] === "string") bounds.push(`pattern=${pyString(rustPattern(node["pattern"]))}`);
          return { type: "str", bounds };
        case "integer":
        case "number":
          bound("minimum", "ge");
          bound("maximum", "le");
          return { type: node["type"] === "integer" ? "int" : "float", bounds };
        case "boolean":
          return { type: "bool", bounds };
        case "array":
          bound("minItems", "min_length");
          return { type: `list[${fieldOf((node["items"] ?? true) as Schema, `${hint}Item`).type}]`, bounds };
        case "object":
          if (node["properties"] === undefined) return { type: "dict[str, object]", bounds };
          return { type: model(node, def === undefined ? hint : camel(def)), bounds };
        default:
          return { type: "object", bounds };
      }
    };
    const model = (node: JsonSchema, wanted: string, exact?: string): string => {
      const properties = node["properties"] as Record<string, Schema>;
      const required = new Set((node["required"] as string[] | undefined) ?? []);
      const fields = Object.entries(properties).map(([key, child]) => {
        if (!/^[a-z][A-Za-z0-9_]*$/.test(key) || key.startsWith("model_")) throw new Error(`internal: property ${key} cannot be a pydantic field`);
        return { key, ...fieldOf(child, camel(key)), required: required.has(key) };
      });
      const shape = JSON.stringify(fields);
      const known = this.byShape.get(shape);
      if (known !== undefined && exact === undefined) return known;
      const className = exact ?? `${wanted}${suffix}`;
      if (this.taken.has(className)) throw new Error(`internal: two models are named ${className}`);
      this.taken.add(className);
      this.byShape.set(shape, className);
      const doc = typeof node["description"] === "string" ? node["description"] : typeof node["title"] === "string" ? node["title"] : className;
      const line = (f: { key: string; type: string; bounds: string[]; required: boolean }): string => {
        if (f.required) return f.bounds.length === 0 ? `    ${f.key}: ${f.type}` : `    ${f.key}: ${f.type} = Field(${f.bounds.join(", ")})`;
        return f.bounds.length === 0 ? `    ${f.key}: ${f.type} | None = None` : `    ${f.key}: ${f.type} | None = Field(default=None, ${f.bounds.join(", ")})`;
      };
      this.classes.push([`class ${className}(BaseModel):`, `    ${pyString(doc)}`, "", "    model_config = _STRICT", "", ...fields.map(line)].join("\n"));
      return className;
    };
    return model(schema, name, name);
  }

  code(): string {
    return this.classes.join("\n\n\n");
  }
}

/**
 * Emits `<graph>_models.py`: the strict pydantic models of the graph's edges.
 *
 * @param graph - a checked graph without errors
 * @param source - the `.seam` text (hashed into the header)
 */
export function emitPydanticModels(graph: CheckedGraph, source: { readonly text: string }): string {
  const writer = new ModelWriter();
  const names = graph.edges.map((edge) => {
    const name = edgeEnvelopeClassName(edge);
    writer.add(edgeSchema(graph, edge, name), name, edgeValidatorName(edge).slice("validate".length));
    return name;
  });
  const hash = createHash("sha256").update(source.text).digest("hex");
  const graphName = pyString(graph.name).slice(1, -1);
  const edgeModels = graph.edges.map((edge, e) => `    (${pyString(edge.kind)}, ${pyString(edge.from)}, ${pyString(edge.to)}): ${names[e] as string},`);
  return [
    `# Generated by seam ${packageVersion()} (seam compile --target python --pydantic) from graph ${graphName},`,
    `# source sha256:${hash}. Do not edit: change the .seam file and recompile.`,
    "# fmt: off",
    `"""Strict pydantic v2 models of the edges of graph ${graphName.replace(/"/g, "'")} (pydantic==${PYDANTIC_VERSION}, the`,
    "seam-handoff[pydantic] extra): one per edge, for frameworks that take a pydantic type, such as an",
    "OpenAI Agents SDK handoff's input_type. A model is the producer's typed front: accept() in the",
    "graph's validator module remains the ingest check (formats, contract rules, the graph, the",
    'ledger). to_envelope(model) gives the envelope accept() takes."""',
    "",
    "from typing import Final, Literal",
    "",
    "from pydantic import BaseModel, ConfigDict, Field",
    "",
    `__all__ = [${["EDGE_MODELS", "to_envelope", ...names].sort().map((n) => `"${n}"`).join(", ")}]`,
    "",
    '_STRICT: Final = ConfigDict(strict=True, extra="forbid")',
    "",
    "",
    writer.code(),
    "",
    "",
    "EDGE_MODELS: Final[dict[tuple[str, str, str], type[BaseModel]]] = {",
    ...edgeModels,
    "}",
    '"""Each edge\'s model, by (kind, from, to) as EdgeInfo names the edge."""',
    "",
    "",
    "def to_envelope(model: BaseModel) -> dict[str, object]:",
    '    """The envelope of a model, as accept() takes it: JSON data, fields left unset or None left out',
    '    (a strict tool schema sends null for a field the caller omits; no envelope field is null)."""',
    '    return model.model_dump(mode="json", exclude_none=True)',
    "",
  ].join("\n");
}
