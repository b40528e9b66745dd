/**
 * Compiles Seam's JSON Schemas (draft 2020-12: the envelope schema and the contract overlays that
 * `$ref` it) into straight-line Python, as Ajv's standalone code generation does for JavaScript
 * and `fastjsonschema` does for Python: one function per schema resource and per `$ref` target,
 * every other node inlined, every error collected.
 *
 * The Python reports exactly what Ajv reports with Seam's options (`allErrors`, `strict`, no
 * coercion, `strictNumbers`): the same errors, in the same order, with the same `instancePath`
 * (a JSON Pointer), `keyword` and `params`, so the runtime turns them into the same reasons. In
 * particular, as in Ajv:
 * - keywords run in Ajv's order: `$ref`, `const`/`enum`, then the keywords of the node's type
 *   (`maximum`, `minimum`; `maxLength`, `minLength`, `pattern`, `format`; `minItems`, `items`;
 *   `required`, `additionalProperties`, `properties`), with one `type` error when the type is wrong;
 * - `integer` is a number with a zero fraction, `number` is finite (NaN, infinities and integers
 *   too large for a double are not numbers), and booleans are never numbers;
 * - `minimum`/`maximum` also run on a finite number that failed `integer`;
 * - string lengths count code points; `pattern` is searched, never coerced, `$` ends the text.
 *
 * Only the keywords Seam's schemas use are supported; any other one is a bug and throws.
 */
import type { JsonSchema } from "../../core/envelope-schema.js";
import { pyLiteral, pyString } from "./literal.js";

/** One compiled entry point: `validate_<name>(data) -> list[SchemaError]`. */
export interface PythonValidatorEntry {
  /** The Python function name. */
  readonly name: string;
  /** The `$id` of the schema it validates. */
  readonly id: string;
}

/** Generated validator code: helper constants and functions, then the public entry points. */
export interface PythonValidators {
  readonly code: string;
  readonly entries: readonly PythonValidatorEntry[];
}

const KNOWN_KEYWORDS = new Set([
  "$schema",
  "$id",
  "$ref",
  "$defs",
  "title",
  "description",
  "type",
  "enum",
  "const",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "items",
  "required",
  "additionalProperties",
  "properties",
]);

/** The format checks of the runtime, by format name (ajv-formats "full" mode). */
const FORMAT_CHECKS: ReadonlyMap<string, (data: string) => string> = new Map([
  ["uuid", (data: string) => `_UUID.match(${data}) is None`],
  // The common shapes first, inline: the full check is a call.
  ["date-time", (data: string) => `_DATE_TIME_COMMON.match(${data}) is None and not _format_date_time(${data})`],
  ["uri", (data: string) => `_URI_COMMON.match(${data}) is None and not _format_uri(${data})`],
]);

type Schema = JsonSchema | boolean;

/** An instance path being built: literal JSON Pointer text and Python expressions, in order. */
type PathPart = { readonly text: string } | { readonly expr: string };

function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

function renderPath(parts: readonly PathPart[]): string {
  const merged: PathPart[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if ("text" in part && last !== undefined && "text" in last) merged[merged.length - 1] = { text: last.text + part.text };
    else merged.push(part);
  }
  const rendered = merged.filter((p) => !("text" in p) || p.text !== "").map((p) => ("text" in p ? pyString(p.text) : p.expr));
  return rendered.length === 0 ? '""' : rendered.join(" + ");
}

/**
 * Translates an ECMAScript `u`-mode pattern of the subset Seam's schemas use into a Python
 * pattern with the same meaning under `re.search`: `$` outside a class becomes `\Z` (Python's `$`
 * also matches before a final newline), `\d` becomes `[0-9]` (Python's is Unicode-wide).
 *
 * @throws Error on an escape this translation does not know (a bug: Seam wrote the pattern)
 */
export function translatePattern(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string;
    if (c === "\\") {
      const next = source[i + 1];
      i++;
      if (next === "d") out += inClass ? "0-9" : "[0-9]";
      else if (next !== undefined && /[\\.\-^$*+?()[\]{}|/]/.test(next)) out += `\\${next}`;
      else throw new Error(`internal: pattern escape \\${next ?? ""} is not supported in Python output`);
    } else if (c === "[" && !inClass) {
      inClass = true;
      out += c;
    } else if (c === "]" && inClass) {
      inClass = false;
      out += c;
    } else if (c === "$" && !inClass) {
      out += "\\Z";
    } else out += c;
  }
  return out;
}

function asObject(schema: Schema, where: string): JsonSchema {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new Error(`internal: ${where} is not a schema object`);
  return schema;
}

/**
 * The Python source of validators for a set of schema resources.
 *
 * @param resources - schemas with an `$id` each (the envelope schema first); `$ref`s resolve to
 *   a resource's `$id` or, with a `#/$defs/<name>` fragment, into a resource
 * @param entries - the resources to expose, in order, with their Python function names
 * @param external - resources compiled elsewhere, by `$id`: the name of a function
 *   `(data, path, errors) -> None` the code calls for a `$ref` to one (the runtime package's
 *   envelope validator), instead of compiling the resource again
 * @throws Error on a keyword, type, format or `$ref` outside the supported subset (a bug)
 */
export function compileSchemasToPython(
  resources: readonly JsonSchema[],
  entries: readonly PythonValidatorEntry[],
  external: ReadonlyMap<string, string> = new Map(),
): PythonValidators {
  const byId = new Map<string, JsonSchema>();
  for (const resource of resources) {
    const id = resource["$id"];
    if (typeof id !== "string") throw new Error("internal: a schema resource has no $id");
    byId.set(id, resource);
  }
  const constants: string[] = [];
  const constantNames = new Map<string, string>();
  const functions: string[] = [];
  const functionNames = new Map<string, string>();
  const queue: { key: string; schema: JsonSchema; base: string; name: string }[] = [];

  function constant(prefix: string, expression: string): string {
    const key = `${prefix}\0${expression}`;
    let name = constantNames.get(key);
    if (name === undefined) {
      name = `${prefix}_${constantNames.size}`;
      constantNames.set(key, name);
      constants.push(`${name}: Final = ${expression}`);
    }
    return name;
  }

  function resolve(ref: string, base: string): { key: string; schema: JsonSchema; base: string } {
    const hash = ref.indexOf("#");
    const resourceId = hash === 0 ? base : hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? "" : ref.slice(hash + 1);
    const resource = byId.get(resourceId);
    if (resource === undefined) throw new Error(`internal: $ref ${JSON.stringify(ref)} names no known schema`);
    if (fragment === "") return { key: resourceId, schema: resource, base: resourceId };
    const match = /^\/\$defs\/([A-Za-z0-9_]+)$/.exec(fragment);
    const defs = resource["$defs"] as Record<string, Schema> | undefined;
    const target = match !== null && defs !== undefined ? defs[match[1] as string] : undefined;
    if (target === undefined) throw new Error(`internal: $ref ${JSON.stringify(ref)} does not resolve`);
    return { key: `${resourceId}#${fragment}`, schema: asObject(target, ref), base: resourceId };
  }

  function functionFor(key: string, schema: JsonSchema, base: string): string {
    let name = functionNames.get(key);
    if (name === undefined) {
      name = `_validate_${functionNames.size}`;
      functionNames.set(key, name);
      queue.push({ key, schema, base, name });
    }
    return name;
  }

  /** Emits the checks of one schema node into `out`. */
  function node(schema: Schema, data: string, path: readonly PathPart[], base: string, indent: string, out: string[], depth: number): void {
    if (schema === true) return;
    const s = asObject(schema, "a node");
    for (const keyword of Object.keys(s)) {
      if (!KNOWN_KEYWORDS.has(keyword)) throw new Error(`internal: keyword ${keyword} is not supported in Python output`);
    }
    const at = (): string => renderPath(path);
    const report = (keyword: string, params: string, pad: string): string =>
      `${pad}errors.append(SchemaError(${at()}, ${pyString(keyword)}, ${params}))`;
    const ref = s["$ref"];
    if (typeof ref === "string") {
      const target = resolve(ref, base);
      // A definition of the same resource is inlined (no call per use); another resource gets a function.
      if (ref.startsWith("#")) {
        if (depth > 32) throw new Error(`internal: $ref ${JSON.stringify(ref)} nests too deeply (a cycle?)`);
        node(target.schema, data, path, target.base, indent, out, depth);
      } else {
        const outside = external.get(target.key);
        out.push(`${indent}${outside ?? functionFor(target.key, target.schema, target.base)}(${data}, ${at()}, errors)`);
      }
    }
    if (s["const"] !== undefined) {
      const value = s["const"];
      if (typeof value !== "string") throw new Error("internal: only string const is supported in Python output");
      out.push(`${indent}if not (isinstance(${data}, str) and ${data} == ${pyString(value)}):`);
      out.push(report("const", `{"allowedValue": ${pyString(value)}}`, `${indent}    `));
    }
    if (s["enum"] !== undefined) {
      const values = s["enum"];
      if (!Array.isArray(values) || !values.every((v): v is string => typeof v === "string")) {
        throw new Error("internal: only string enums are supported in Python output");
      }
      const set = constant("_ENUM", `frozenset((${values.map(pyString).join(", ")},))`);
      const allowed = constant("_ALLOWED", pyLiteral(values));
      out.push(`${indent}if not (isinstance(${data}, str) and ${data} in ${set}):`);
      out.push(report("enum", `{"allowedValues": ${allowed}}`, `${indent}    `));
    }
    const type = s["type"];
    if (type !== undefined && typeof type !== "string") throw new Error("internal: only single types are supported in Python output");
    const inner = `${indent}    `;
    const typeError = (): void => {
      out.push(report("type", `{"type": ${pyString(type as string)}}`, inner));
    };

    // number group (with the integer check up front, as Ajv does)
    const numberKeywords = ["maximum", "minimum"].filter((k) => s[k] !== undefined);
    /** The limit checks; `safe`: only those a whole number from -(2^53 - 1) to 2^53 - 1 can fail (the fast path's). */
    const limitChecks = (pad: string, safe = false): string[] =>
      numberKeywords.flatMap((keyword) => {
        const limit = s[keyword];
        if (typeof limit !== "number") throw new Error(`internal: ${keyword} is not a number`);
        if (safe && (keyword === "maximum" ? limit >= Number.MAX_SAFE_INTEGER : limit <= -Number.MAX_SAFE_INTEGER)) return [];
        const comparison = pyString(keyword === "maximum" ? "<=" : ">=");
        return [
          `${pad}if ${data} ${keyword === "maximum" ? ">" : "<"} ${pyLiteral(limit)}:`,
          report(keyword, `{"comparison": ${comparison}, "limit": ${pyLiteral(limit)}}`, `${pad}    `),
        ];
      });
    if (type === "integer") {
      // Fast path: a plain int within a double's range is an integer and a finite number. Its
      // bound is 2**53, a literal: -_INT_LIMIT allocated a big int per check, and a big int is
      // compared through the generic protocol (and by mypyc off its native int path). A larger
      // int takes the general path below, which gives every int within _INT_LIMIT the same answer.
      out.push(`${indent}if type(${data}) is int and -9007199254740992 < ${data} < 9007199254740992:`);
      const fast = limitChecks(inner, true);
      out.push(...(fast.length > 0 ? fast : [`${inner}pass`]));
      out.push(`${indent}else:`, `${inner}if not _is_integer(${data}):`, report("type", `{"type": "integer"}`, `${inner}    `));
      if (numberKeywords.length > 0) out.push(`${inner}if _is_number(${data}):`, ...limitChecks(`${inner}    `));
    } else if (numberKeywords.length > 0 || type === "number") {
      const isNumber = `(type(${data}) is float and ${data} - ${data} == 0.0) or _is_number(${data})`;
      if (numberKeywords.length === 0) {
        out.push(`${indent}if not (${isNumber}):`);
        typeError();
      } else {
        out.push(`${indent}if ${isNumber}:`, ...limitChecks(inner));
        if (type === "number") {
          out.push(`${indent}else:`);
          typeError();
        }
      }
    }
    if (type === "boolean") {
      out.push(`${indent}if not (${data} is True or ${data} is False):`);
      typeError();
    }

    // string group
    const body: string[] = [];
    for (const keyword of ["maxLength", "minLength"]) {
      const limit = s[keyword];
      if (limit === undefined) continue;
      if (typeof limit !== "number") throw new Error(`internal: ${keyword} is not a number`);
      body.push(`${inner}if len(${data}) ${keyword === "maxLength" ? ">" : "<"} ${pyLiteral(limit)}:`);
      body.push(report(keyword, `{"limit": ${pyLiteral(limit)}}`, `${inner}    `));
    }
    if (s["pattern"] !== undefined) {
      const pattern = s["pattern"];
      if (typeof pattern !== "string") throw new Error("internal: pattern is not a string");
      const compiled = constant("_PATTERN", `re.compile(${pyString(translatePattern(pattern))})`);
      body.push(`${inner}if ${compiled}.search(${data}) is None:`);
      body.push(report("pattern", `{"pattern": ${pyString(pattern)}}`, `${inner}    `));
    }
    if (s["format"] !== undefined) {
      const check = FORMAT_CHECKS.get(String(s["format"]));
      if (check === undefined) throw new Error(`internal: format ${String(s["format"])} is not supported in Python output`);
      body.push(`${inner}if ${check(data)}:`);
      body.push(report("format", `{"format": ${pyString(String(s["format"]))}}`, `${inner}    `));
    }
    group("str", "string", body);

    // array group
    body.length = 0;
    if (s["minItems"] !== undefined) {
      body.push(`${inner}if len(${data}) < ${pyLiteral(s["minItems"])}:`);
      body.push(report("minItems", `{"limit": ${pyLiteral(s["minItems"])}}`, `${inner}    `));
    }
    if (s["items"] !== undefined && s["items"] !== true) {
      const index = `i${depth}`;
      const item = `d${depth + 1}`;
      body.push(`${inner}for ${index}, ${item} in enumerate(${data}):`);
      node(s["items"] as Schema, item, [...path, { text: "/" }, { expr: `str(${index})` }], base, `${inner}    `, body, depth + 1);
    }
    group("list", "array", body);

    // object group
    body.length = 0;
    const required = (s["required"] as string[] | undefined) ?? [];
    for (const name of required) {
      body.push(`${inner}if ${pyString(name)} not in ${data}:`);
      body.push(report("required", `{"missingProperty": ${pyString(name)}}`, `${inner}    `));
    }
    const properties = (s["properties"] as Record<string, Schema> | undefined) ?? {};
    if (s["additionalProperties"] === false) {
      const known = constant("_KNOWN", `frozenset((${Object.keys(properties).map(pyString).join(", ")},))`);
      body.push(`${inner}if not ${known}.issuperset(${data}):`);
      body.push(`${inner}    for key in _js_key_order([k for k in ${data} if k not in ${known}]):`);
      body.push(`${inner}        errors.append(SchemaError(${at()}, "additionalProperties", {"additionalProperty": key}))`);
    } else if (s["additionalProperties"] !== undefined) {
      throw new Error("internal: only additionalProperties: false is supported in Python output");
    }
    for (const [name, child] of Object.entries(properties)) {
      if (child === true) continue;
      const value = `d${depth + 1}`;
      const checks: string[] = [];
      node(child, value, [...path, { text: `/${escapeToken(name)}` }], base, `${inner}    `, checks, depth + 1);
      if (checks.length === 0) continue;
      // One lookup, not `in` then `[]`: JSON keys are not interned, so each lookup compares text.
      const absent = constant("_ABSENT", "object()");
      body.push(`${inner}${value} = ${data}.get(${pyString(name)}, ${absent})`);
      body.push(`${inner}if ${value} is not ${absent}:`);
      body.push(...checks);
    }
    group("dict", "object", body);

    function group(pythonType: string, jsonType: string, lines: readonly string[]): void {
      if (lines.length === 0) {
        if (type === jsonType) {
          out.push(`${indent}if not isinstance(${data}, ${pythonType}):`);
          typeError();
        }
        return;
      }
      // The cast gives type checkers the JSON value's shape (pyright strict types a dict or list
      // narrowed from `object` as holding unknowns); it sits under TYPE_CHECKING because
      // typing.cast is a call at run time, and this runs for every object and array.
      const shape = pythonType === "dict" ? "dict[str, object]" : pythonType === "list" ? "list[object]" : undefined;
      const cast = shape === undefined ? [] : [`${inner}if TYPE_CHECKING:`, `${inner}    ${data} = cast(${pyString(shape)}, ${data})`];
      out.push(`${indent}if isinstance(${data}, ${pythonType}):`, ...cast, ...lines);
      if (type === jsonType) {
        out.push(`${indent}else:`);
        typeError();
      }
    }
  }

  const publicFunctions = entries.map((entry) => {
    const resource = byId.get(entry.id);
    if (resource === undefined) throw new Error(`internal: no schema ${entry.id}`);
    const target = functionFor(entry.id, resource, entry.id);
    return [
      `def ${entry.name}(data: object) -> list[SchemaError]:`,
      `    """Validates \`data\` against ${pyString(entry.id).slice(1, -1)} (JSON Schema draft 2020-12).`,
      "",
      "    Returns every error, in Ajv's order, as SchemaError(instance_path, keyword, params);",
      "    an empty list means valid. Reads only; raises only what a hostile mapping raises.",
      '    """',
      "    errors: list[SchemaError] = []",
      `    ${target}(data, "", errors)`,
      "    return errors",
    ].join("\n");
  });
  while (queue.length > 0) {
    const next = queue.shift() as (typeof queue)[number];
    const lines: string[] = [];
    node(next.schema, "data", [{ expr: "path" }], next.base, "    ", lines, 0);
    functions.push(
      [
        `def ${next.name}(data: object, path: str, errors: list[SchemaError]) -> None:`,
        `    # ${pyString(next.key).slice(1, -1)}`,
        ...(lines.length > 0 ? lines : ["    pass"]),
      ].join("\n"),
    );
  }
  const code = [...constants, "", ...functions.flatMap((f) => [f, ""]), ...publicFunctions.flatMap((f) => [f, ""])].join("\n");
  return { code: `${code.trimEnd()}\n`, entries };
}
