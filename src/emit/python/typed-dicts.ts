/**
 * `TypedDict` classes (PEP 589) for the shapes of a graph's envelopes, generated from the same
 * JSON Schemas the validators check: `Envelope` from the envelope schema, and one class per edge
 * (`<Kind>Envelope__<from>__<to>`) from the edge's schema, where the edge's required fields are
 * required keys and `from_agent.id`, `to_agent.id` are `Literal`s. A producer that annotates the
 * envelope it builds gets a type error from mypy or pyright for a missing required field or a
 * misspelt agent. Types are static only: accept() still checks every envelope at run time.
 *
 * Python 3.10 has no `typing.Required`, so an object with required and optional keys becomes two
 * classes: `_<Name>Required` with the required keys, and `<Name>` adding the optional ones with
 * `total=False`. Nested objects get a class each, named after their `$defs` entry or property
 * (`Hop`, `AgentRef`, `ArtefactsItem`); shapes that are equal share one class, and a shape an
 * edge changes (an item with a required `digest`) gets the edge's suffix (`Hop_delegate__triage__billing`).
 */
import type { JsonSchema } from "../../core/envelope-schema.js";
import { pyString } from "./literal.js";

type Schema = JsonSchema | boolean;

/** Python's keywords, which class syntax cannot take as keys. */
const KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

function camel(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== "")
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join("");
}

/** Builds the classes of several schemas into one module, sharing equal shapes. */
export class TypedDictWriter {
  /** Each class's code, with the public class it belongs to (a `_<Name>Required` base belongs to `<Name>`). */
  private readonly classes: { readonly owner: string; readonly code: string }[] = [];
  /** Class name by structural key. */
  private readonly byShape = new Map<string, string>();
  private readonly taken = new Set<string>();
  /** The keys of each class: name, Python type, required. */
  private readonly fieldsByClass = new Map<string, readonly { key: string; type: string; required: boolean }[]>();

  /**
   * Adds the classes of `schema` (a closed object schema whose `$ref`s point into its own
   * `$defs`); returns the name of its top-level class.
   *
   * @param schema - the schema
   * @param name - the top-level class's name
   * @param suffix - appended to the names of nested classes whose shape no earlier schema had
   *   (`_delegate__triage__billing`; empty for the envelope)
   * @throws Error for a property name class syntax cannot hold or an unresolved `$ref` (a bug: Seam wrote the schema)
   */
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
    const typeOf = (raw: Schema, hint: string): string => {
      const { node, def } = resolve(raw);
      if (typeof node !== "object") return "object";
      if (node["const"] !== undefined) return `Literal[${pyString(String(node["const"]))}]`;
      if (Array.isArray(node["enum"])) return `Literal[${(node["enum"] as unknown[]).map((v) => pyString(String(v))).join(", ")}]`;
      switch (node["type"]) {
        case "string":
          return "str";
        case "integer":
          return "int";
        case "number":
          return "float";
        case "boolean":
          return "bool";
        case "array":
          return `list[${typeOf((node["items"] ?? true) as Schema, `${hint}Item`)}]`;
        case "object":
          return node["properties"] === undefined ? "dict[str, object]" : objectClass(node, def === undefined ? hint : camel(def));
        default:
          return "object";
      }
    };
    const objectClass = (node: JsonSchema, wanted: string, exact?: string): string => {
      const properties = node["properties"] as Record<string, Schema>;
      const required = new Set((node["required"] as string[] | undefined) ?? []);
      const fields = Object.entries(properties).map(([key, child]) => {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) || KEYWORDS.has(key)) throw new Error(`internal: property ${key} is no Python identifier`);
        return { key, type: typeOf(child, camel(key)), required: required.has(key) };
      });
      const shape = JSON.stringify(fields);
      const known = this.byShape.get(shape);
      if (known !== undefined && exact === undefined) return known;
      // An edge's own shapes carry its suffix, so no edge's class takes a plain envelope name.
      const className = exact ?? `${wanted}${suffix}`;
      if (this.taken.has(className)) throw new Error(`internal: two TypedDicts are named ${className}`);
      this.taken.add(className);
      this.byShape.set(shape, className);
      this.fieldsByClass.set(className, fields);
      const doc = typeof node["description"] === "string" ? node["description"] : typeof node["title"] === "string" ? node["title"] : className;
      const line = (f: { key: string; type: string }) => `    ${f.key}: ${f.type}`;
      const must = fields.filter((f) => f.required);
      const may = fields.filter((f) => !f.required);
      if (may.length === 0 || must.length === 0) {
        const total = must.length === 0 && may.length > 0 ? ", total=False" : "";
        this.classes.push({ owner: className, code: [`class ${className}(TypedDict${total}):`, `    ${pyString(doc)}`, "", ...fields.map(line)].join("\n") });
      } else {
        const base = `_${className}Required`;
        this.classes.push({ owner: className, code: [`class ${base}(TypedDict):`, `    ${pyString(`The required keys of ${className}.`)}`, "", ...must.map(line)].join("\n") });
        this.classes.push({ owner: className, code: [`class ${className}(${base}, total=False):`, `    ${pyString(doc)}`, "", ...may.map(line)].join("\n") });
      }
      return className;
    };
    if (schema["type"] !== "object" || schema["properties"] === undefined) throw new Error("internal: an envelope schema is not an object schema");
    return objectClass(schema, name, name);
  }

  /** The keys of class `name` (its name, Python type and whether it is required), in schema order. */
  fields(name: string): readonly { key: string; type: string; required: boolean }[] {
    const found = this.fieldsByClass.get(name);
    if (found === undefined) throw new Error(`internal: no TypedDict ${name}`);
    return found;
  }

  /** The public classes written so far (no `_<Name>Required` base), dependencies first. */
  classNames(): string[] {
    return [...new Set(this.classes.map((c) => c.owner))];
  }

  /**
   * The classes written so far, dependencies first, two blank lines apart.
   *
   * @param without - classes defined elsewhere (the runtime's envelope classes), left out
   */
  code(without: ReadonlySet<string> = new Set()): string {
    return this.classes
      .filter((c) => !without.has(c.owner))
      .map((c) => c.code)
      .join("\n\n\n");
  }
}
