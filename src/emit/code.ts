/**
 * Building generated source text safely (Ajv's `lib/compile/codegen` habit): code is assembled
 * only through the {@link js} tagged template, where every interpolated value is either
 * {@link Code} already vetted or plain data, which {@link stringifyValue} turns into a literal.
 * User strings therefore never reach the output unquoted.
 */

/** A fragment of generated source that is known to be safe to splice in. */
export interface Code {
  readonly code: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function isCode(value: unknown): value is Code {
  return typeof value === "object" && value !== null && codes.has(value as Code);
}

// Only this module mints Code, so a plain `{ code }` object from elsewhere is data, not code.
const codes = new WeakSet<Code>();

function mint(code: string): Code {
  const value: Code = { code };
  codes.add(value);
  return value;
}

/**
 * Quotes a string as a JavaScript (and TypeScript) string literal: JSON escaping, plus U+2028,
 * U+2029 (line terminators in older engines) and `<`, `>` (so `</script>` or `-->` cannot end a
 * surrounding HTML context).
 */
export function quoteString(text: string): string {
  return JSON.stringify(text).replace(/[\u2028\u2029<>]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Writes JSON-like data (null, booleans, finite numbers, strings, arrays, plain objects; `undefined`
 * properties are left out) as a JavaScript expression. A `__proto__` key is written computed
 * (`["__proto__"]`), which defines an own property instead of setting the prototype.
 *
 * @param value - the data
 * @param indent - indentation of the current line, for nested arrays of objects
 * @throws Error for values with no literal form (a bug in the emitter)
 */
export function stringifyValue(value: unknown, indent = ""): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return quoteString(value);
    case "boolean":
      return String(value);
    case "number":
      if (!Number.isFinite(value)) throw new Error(`internal: cannot emit the number ${value}`);
      return Object.is(value, -0) ? "0" : String(value);
    case "object": {
      if (Array.isArray(value)) {
        if (value.length === 0) return "[]";
        const inner = `${indent}  `;
        const multiline = value.some((item) => typeof item === "object" && item !== null);
        const items = value.map((item) => stringifyValue(item, inner));
        return multiline ? `[\n${items.map((item) => `${inner}${item},`).join("\n")}\n${indent}]` : `[${items.join(", ")}]`;
      }
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) break;
      const parts: string[] = [];
      for (const [key, item] of Object.entries(value)) {
        if (item === undefined) continue;
        const name = key === "__proto__" ? `[${quoteString(key)}]` : IDENTIFIER.test(key) ? key : quoteString(key);
        parts.push(`${name}: ${stringifyValue(item, indent)}`);
      }
      return parts.length === 0 ? "{}" : `{ ${parts.join(", ")} }`;
    }
    default:
      break;
  }
  throw new Error(`internal: cannot emit a value of type ${typeof value}`);
}

/**
 * Tagged template for generated code: `${}` holes take {@link Code} (spliced as is) or data
 * (written by {@link stringifyValue}); join several fragments first with {@link joinCode}.
 */
export function js(strings: TemplateStringsArray, ...values: unknown[]): Code {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (isCode(value)) out += value.code;
    else out += stringifyValue(value);
    out += strings[i + 1] as string;
  }
  return mint(out);
}

/**
 * An identifier to splice into code.
 *
 * @throws Error when `name` is not a plain identifier (a bug in the emitter)
 */
export function identifier(name: string): Code {
  if (!IDENTIFIER.test(name)) throw new Error(`internal: ${JSON.stringify(name)} is not an identifier`);
  return mint(name);
}

/**
 * Marks text produced by a trusted generator (Ajv's standalone code, after the checks in
 * `validator-module.ts`) as code.
 */
export function trustedCode(text: string): Code {
  return mint(text);
}

/** Joins code fragments with a separator. */
export function joinCode(parts: readonly Code[], separator: string): Code {
  return mint(parts.map((part) => part.code).join(separator));
}
