/**
 * The ingest hot path's JSON data check, generated from a closed schema (the Python twin of
 * `createDataCheck` in `src/runtime/json-data.ts`). A value the schema accepted has every value
 * typed: no NaN, no number too large, no tuple, no key that is not a known name, no cycle (a
 * closed schema of finite depth cannot hold one). What is left to look at is free text: strings
 * without a `format`, `pattern` or `enum` (those match ASCII-only definitions) may hold an
 * unpaired surrogate. The generated function reads exactly those strings, straight-line, and
 * answers whether all of them are Unicode text.
 */
import type { JsonSchema } from "../../core/envelope-schema.js";
import { pyString } from "./literal.js";

type Schema = JsonSchema | boolean;

/**
 * Python source of `def <name>(data: object) -> bool`: False when a free-text string of a value
 * shaped like `schema` holds an unpaired surrogate; True otherwise (also for parts not shaped
 * like the schema, which the schema itself refuses).
 *
 * @param schema - a closed schema whose `$ref`s point into its own `$defs`
 * @param name - the function's name
 * @throws Error when a `$ref` does not resolve (a bug)
 */
export function compileFreeTextCheck(schema: JsonSchema, name: string): string {
  const defs = (schema["$defs"] ?? {}) as Record<string, JsonSchema>;

  function resolved(node: Schema): Schema {
    if (typeof node !== "object") return node;
    const ref = node["$ref"];
    if (typeof ref !== "string") return node;
    const target = defs[ref.replace(/^#\/\$defs\//, "")];
    if (target === undefined) throw new Error(`internal: ${ref} does not resolve`);
    return resolved(target);
  }

  /** Lines checking `data` (a variable) at `indent`; empty when nothing in the node can fail. */
  function lines(node: Schema, data: string, indent: string, depth: number): string[] {
    const s = resolved(node);
    if (typeof s !== "object") return [];
    switch (s["type"]) {
      case "string":
        if (s["format"] !== undefined || s["pattern"] !== undefined || s["enum"] !== undefined) return [];
        return [`${indent}if isinstance(${data}, str) and not ${data}.isascii() and _LONE_SURROGATE.search(${data}):`, `${indent}    return False`];
      case "array": {
        const item = `t${depth + 1}`;
        const inner = lines((s["items"] ?? true) as Schema, item, `${indent}        `, depth + 1);
        return inner.length === 0 ? [] : [`${indent}if isinstance(${data}, list):`, `${indent}    if TYPE_CHECKING:`, `${indent}        ${data} = cast("list[object]", ${data})`, `${indent}    for ${item} in ${data}:`, ...inner];
      }
      case "object": {
        const out: string[] = [];
        for (const [key, child] of Object.entries((s["properties"] ?? {}) as Record<string, Schema>)) {
          const value = `t${depth + 1}`;
          const inner = lines(child, value, `${indent}    `, depth + 1);
          // One lookup, not `in` then `[]` (JSON keys are not interned: each lookup compares
          // text); an absent key reads as None, which no check below takes for text.
          if (inner.length > 0) out.push(`${indent}    ${value} = ${data}.get(${pyString(key)})`, ...inner);
        }
        return out.length === 0 ? [] : [`${indent}if isinstance(${data}, dict):`, `${indent}    if TYPE_CHECKING:`, `${indent}        ${data} = cast("dict[str, object]", ${data})`, ...out];
      }
      default:
        return [];
    }
  }

  const body = lines(schema, "data", "    ", 0);
  return [`def ${name}(data: object) -> bool:`, '    """Whether every free-text string of a schema-valid envelope is Unicode text."""', ...body, "    return True", ""].join("\n");
}
