/**
 * Building generated Python safely, the way `../code.ts` does it for JavaScript: code is assembled
 * through the {@link py} tagged template, where every interpolated value is either {@link PyCode}
 * already vetted or plain data written by {@link pyLiteral}. Graph names, agent ids, field names
 * and schema strings therefore reach the output only as escaped, ASCII-only literals.
 */

/** A fragment of generated Python known to be safe to splice in. */
export interface PyCode {
  readonly code: string;
}

// Only this module mints PyCode, so a plain `{ code }` object from elsewhere is data, not code.
const codes = new WeakSet<PyCode>();

function mint(code: string): PyCode {
  const value: PyCode = { code };
  codes.add(value);
  return value;
}

function isPyCode(value: unknown): value is PyCode {
  return typeof value === "object" && value !== null && codes.has(value as PyCode);
}

/** Python's hard keywords (https://docs.python.org/3/reference/lexical_analysis.html#keywords). */
const KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
    " ",
  ),
);

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, "0");
}

/**
 * Quotes a string as a Python string literal that is pure printable ASCII: `\\`, `"` and every
 * character outside U+0020..U+007E are escaped (`\n`, `\xNN`, `\uNNNN`, `\UNNNNNNNN`), so NUL,
 * U+2028, bidirectional controls and lone surrogates can neither end the literal nor hide in
 * the source. A surrogate pair becomes one `\U` escape (one code point, as Python's `json` decodes
 * it); a lone surrogate stays a lone surrogate.
 */
export function pyString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit <= 0x7e) {
      out += unit === 0x22 ? '\\"' : unit === 0x5c ? "\\\\" : text[i];
      continue;
    }
    if (unit === 0x0a) out += "\\n";
    else if (unit === 0x0d) out += "\\r";
    else if (unit === 0x09) out += "\\t";
    else if (unit < 0x100) out += `\\x${hex(unit, 2)}`;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += `\\U${hex(((unit - 0xd800) << 10) + (next - 0xdc00) + 0x10000, 8)}`;
        i++;
      } else {
        out += `\\u${hex(unit, 4)}`;
      }
    } else out += `\\u${hex(unit, 4)}`;
  }
  return `${out}"`;
}

/**
 * Writes JSON-like data as a Python expression: `None`, `True`/`False`, finite numbers (integers as
 * `int`, others as `float`), strings through {@link pyString}, arrays as tuples (immutable
 * constants), plain objects as dicts. Deterministic: the same value gives the same text.
 *
 * @throws Error for values with no literal form (NaN, infinities, functions: a bug in the emitter)
 */
export function pyLiteral(value: unknown): string {
  if (value === null) return "None";
  switch (typeof value) {
    case "string":
      return pyString(value);
    case "boolean":
      return value ? "True" : "False";
    case "number": {
      if (!Number.isFinite(value)) throw new Error(`internal: cannot emit the number ${value} in Python`);
      if (Number.isInteger(value)) return Object.is(value, -0) ? "0" : BigInt(value).toString();
      return String(value);
    }
    case "object": {
      if (Array.isArray(value)) {
        if (value.length === 0) return "()";
        return `(${value.map(pyLiteral).join(", ")}${value.length === 1 ? "," : ""})`;
      }
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) break;
      const parts = Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => `${pyString(key)}: ${pyLiteral(item)}`);
      return `{${parts.join(", ")}}`;
    }
    default:
      break;
  }
  throw new Error(`internal: cannot emit a value of type ${typeof value} in Python`);
}

/**
 * An identifier to splice into Python code.
 *
 * @throws Error when `name` is not a plain ASCII identifier or is a keyword (a bug in the emitter)
 */
export function pyIdentifier(name: string): PyCode {
  if (!IDENTIFIER.test(name) || KEYWORDS.has(name)) throw new Error(`internal: ${JSON.stringify(name)} is not a Python identifier`);
  return mint(name);
}

/**
 * Tagged template for generated Python: `${}` holes take {@link PyCode} (spliced as is) or data
 * (written by {@link pyLiteral}).
 */
export function py(strings: TemplateStringsArray, ...values: unknown[]): PyCode {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    out += isPyCode(value) ? value.code : pyLiteral(value);
    out += strings[i + 1] as string;
  }
  return mint(out);
}

/** Marks Python written by Seam itself (the runtime source) as code. */
export function trustedPython(text: string): PyCode {
  return mint(text);
}

/** Joins code fragments with a separator. */
export function joinPython(parts: readonly PyCode[], separator: string): PyCode {
  return mint(parts.map((part) => part.code).join(separator));
}

/** Indents every non-empty line of a fragment by `prefix`. */
export function indentPython(part: PyCode, prefix: string): PyCode {
  return mint(part.code.replace(/^(?=.)/gm, prefix));
}
