/**
 * The JSON-data check of a schema-valid envelope, as code (see `createDataCheck` in
 * `src/runtime/json-data.ts` for what it checks and why). The runtime's version walks a plan and
 * reads each property by a computed name; emitted with the names written out, every read is a
 * plain property access and the walk has no calls, which is most of the check's cost.
 */
import type { JsonSchema } from "../core/envelope-schema.js";
import { ARRAY, TEXT, planDataCheck, type Plan } from "../runtime/json-data.js";

/** The name of the runtime's `inheritsEnumerable` in emitted code. */
const INHERITS = "$seam_inheritsEnumerable";

/** Statements that `return false` when `value` (a variable name) fails `node`; `depth` keeps names unique. */
function statements(node: Plan, value: string, depth: number, indent: string): string {
  if (node.kind === TEXT) return `${indent}if (typeof ${value} === "string" && !${value}.isWellFormed()) return false;\n`;
  const inner = `${indent}  `;
  if (node.kind === ARRAY) {
    const i = `i${depth}`;
    const item = `v${depth + 1}`;
    return (
      `${indent}if (Array.isArray(${value})) {\n` +
      `${inner}for (let ${i} = 0; ${i} < ${value}.length; ${i}++) {\n` +
      `${inner}  const ${item} = ${value}[${i}];\n` +
      statements(node.items as Plan, item, depth + 1, `${inner}  `) +
      `${inner}}\n${indent}}\n`
    );
  }
  let body = `${inner}if (${INHERITS}(${value})) return false;\n`;
  node.names.forEach((name, k) => {
    const item = `v${depth + 1}_${k}`;
    body += `${inner}const ${item} = ${value}[${JSON.stringify(name)}];\n` + statements(node.plans[k] as Plan, item, depth + 1, inner);
  });
  return `${indent}if (typeof ${value} === "object" && ${value} !== null) {\n${body}${indent}}\n`;
}

/**
 * The source of a function declaration `name(v0)` that answers as `createDataCheck(schema)` does,
 * for emitted modules that import `inheritsEnumerable` as `$seam_inheritsEnumerable`.
 *
 * @param schema - a closed JSON Schema whose `$ref`s point into its own `$defs` (Seam's own)
 * @param name - the function's name, an identifier
 * @throws Error when a `$ref` does not resolve (a bug in the schema)
 */
export function dataCheckSource(schema: JsonSchema, name: string): string {
  const root = planDataCheck(schema);
  return `function ${name}(v0) {\n${root === null ? "" : statements(root, "v0", 0, "  ")}  return true;\n}`;
}
