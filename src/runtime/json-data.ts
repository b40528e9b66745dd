/**
 * Is a value what `JSON.parse` could have returned? `accept()` takes JavaScript values, and a
 * JSON Schema validator reads them as JSON (RFC 8259) data; what passes here is data every later
 * step (loop signatures, RFC 8785 canonical JSON, logs) can handle:
 * - no object inherits an enumerable property (`Object.create(valid)` is not valid: a validator
 *   would read the inherited fields as its own); a class instance's own fields are its data, and
 *   a property set to `undefined` is absent, as `JSON.stringify` has it;
 * - arrays have no holes; numbers are finite; there is no function, symbol or bigint;
 * - no object contains itself (JSON text is a tree), nesting is at most {@link MAX_DEPTH} levels
 *   and the value holds at most {@link MAX_VALUES} values;
 * - strings and property names are Unicode text: no unpaired UTF-16 surrogate (RFC 8259
 *   section 8.2; I-JSON, RFC 7493 section 2.1, forbids them, and RFC 8785 cannot encode them).
 */
import type { JsonSchema } from "../core/envelope-schema.js";
import { quoteUntrusted } from "../core/untrusted-text.js";
import { appendPointer } from "./json-pointer.js";
import { MAX_DEPTH } from "./reason-catalogue.js";
import { reason, type Reason } from "./reason.js";

/** The deepest nesting accepted, the limit `parseEnvelope` applies to text too (`reasons.json`). */
export { MAX_DEPTH };

/**
 * The most values (strings, numbers, objects...) walked: JSON text of 10 MB (the most `seam
 * validate` reads) holds at most 5 million, one character and a comma each. A JavaScript value
 * that shares its parts could otherwise take exponential time.
 */
export const MAX_VALUES = 5_000_000;

/** Why a number read from JSON text can be infinite: RFC 8259 section 6 leaves the range to IEEE 754 doubles. */
const BEYOND_DOUBLE = " (a number written past ±1.7976931348623157e308, the largest IEEE 754 double, reads as ±Infinity)";

/** At most this many problems are listed; a hostile value could otherwise fill a log. */
const MAX_PROBLEMS = 20;

interface WellFormed {
  isWellFormed(): boolean;
}

/** ES2024 `String.prototype.isWellFormed` (Node 20 has it; the project's `lib` is ES2022). */
function isText(text: string): boolean {
  return (text as unknown as WellFormed).isWellFormed();
}

/**
 * Whether reading `object`'s properties can reach inherited enumerable ones (emitted data checks
 * call it too).
 *
 * @param object - any object; arrays and plain objects answer `false` at once
 */
export function inheritsEnumerable(object: object): boolean {
  const proto: unknown = Object.getPrototypeOf(object);
  if (proto === Object.prototype || proto === null || Array.isArray(object)) return false;
  for (const key in proto as object) return key !== undefined;
  return false;
}

/**
 * The ways `value` is not JSON data (see the module comment), as reasons with rules
 * `not-json-data` and `unpaired-surrogate`, each at the JSON Pointer of the offending value or
 * property name; at most 20. Empty for anything `JSON.parse` returns.
 *
 * @param value - any value
 * @throws what a getter or proxy trap of `value` throws
 */
export function jsonDataProblems(value: unknown): Reason[] {
  const problems: Reason[] = [];
  // The objects on the current path (a cycle repeats one of them) and the tokens leading to it.
  const ancestors: object[] = [];
  const path: (string | number)[] = [];
  let budget = MAX_VALUES;
  const pointer = (last?: string | number): string => {
    let text = "";
    for (const token of path) text = appendPointer(text, token);
    return last === undefined ? text : appendPointer(text, last);
  };
  const report = (at: string, rule: string, message: string): void => {
    if (problems.length < MAX_PROBLEMS) problems.push(reason(at, rule, message));
  };

  function walk(item: unknown): void {
    if (problems.length >= MAX_PROBLEMS) return;
    if (--budget < 0) {
      if (budget === -1) report(pointer(), "not-json-data", `is past the ${MAX_VALUES} values an envelope may hold (shared parts are counted each time)`);
      return;
    }
    switch (typeof item) {
      case "string":
        if (!isText(item)) report(pointer(), "unpaired-surrogate", `holds an unpaired UTF-16 surrogate: ${quoteUntrusted(item)} is not Unicode text`);
        return;
      case "boolean":
      case "undefined":
        return;
      case "number":
        if (!Number.isFinite(item)) report(pointer(), "not-json-data", `is ${String(item)}, which JSON cannot write${Number.isNaN(item) ? "" : BEYOND_DOUBLE}`);
        return;
      case "object":
        if (item === null) return;
        break;
      default:
        report(pointer(), "not-json-data", `is a ${typeof item}, which JSON cannot write`);
        return;
    }
    if (ancestors.includes(item)) {
      report(pointer(), "not-json-data", "is one of the objects that contain it (a cycle), which JSON text cannot hold");
      return;
    }
    if (ancestors.length >= MAX_DEPTH) {
      report(pointer(), "not-json-data", `is nested deeper than ${MAX_DEPTH} levels`);
      return;
    }
    if (inheritsEnumerable(item)) {
      report(pointer(), "not-json-data", "inherits enumerable properties (made by Object.create from another object): JSON data has own properties only");
      return;
    }
    ancestors.push(item);
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        if (!(i in item)) {
          report(pointer(i), "not-json-data", "is a hole in the array, which JSON cannot write");
          continue;
        }
        path.push(i);
        walk(item[i]);
        path.pop();
      }
    } else {
      for (const key of Object.keys(item)) {
        if (!isText(key)) report(pointer(key), "unpaired-surrogate", `has a property name with an unpaired UTF-16 surrogate, ${quoteUntrusted(key)}`);
        path.push(key);
        walk((item as Record<string, unknown>)[key]);
        path.pop();
      }
    }
    ancestors.pop();
  }

  walk(value);
  return problems;
}

/** {@link Plan} kind: a free-text string, checked for unpaired surrogates. */
export const TEXT = 0;
/** {@link Plan} kind: an array whose items are checked by `items`. */
export const ARRAY = 1;
/** {@link Plan} kind: an object (checked for inherited properties) whose members `names` are checked by `plans`. */
export const OBJECT = 2;

/**
 * What to look at in a schema node: free text, an array's items, or an object's members (names and
 * plans, index for index; members the schema fixes are left out). One shape for every node, so
 * the check's property reads stay monomorphic.
 */
export interface Plan {
  readonly kind: typeof TEXT | typeof ARRAY | typeof OBJECT;
  readonly names: readonly string[];
  readonly plans: readonly Plan[];
  readonly items: Plan | null;
}

/**
 * What the data check of a schema-valid value reads (see {@link createDataCheck}): one plan per
 * schema node that can fail, `null` when nothing can. `seam compile` turns it into code.
 *
 * @param schema - a closed JSON Schema whose `$ref`s point into its own `$defs`
 * @throws Error when a `$ref` does not resolve (a bug in the schema)
 */
export function planDataCheck(schema: JsonSchema): Plan | null {
  const defs = (schema["$defs"] ?? {}) as Record<string, JsonSchema>;
  /** The node's plan, or `null` when nothing in it can fail. */
  function plan(node: JsonSchema): Plan | null {
    const ref = node["$ref"];
    if (typeof ref === "string") {
      const target = defs[ref.replace(/^#\/\$defs\//, "")];
      if (target === undefined) throw new Error(`internal: ${ref} does not resolve`);
      return plan(target);
    }
    switch (node["type"]) {
      case "string":
        return node["format"] === undefined && node["pattern"] === undefined ? { kind: TEXT, names: [], plans: [], items: null } : null;
      case "array": {
        const items = plan((node["items"] ?? {}) as JsonSchema);
        return items === null ? null : { kind: ARRAY, names: [], plans: [], items };
      }
      case "object": {
        // Every object is looked at (for inherited properties), even one with nothing else to check.
        const names: string[] = [];
        const plans: Plan[] = [];
        for (const [key, child] of Object.entries((node["properties"] ?? {}) as Record<string, JsonSchema>)) {
          const inner = plan(child);
          if (inner !== null) names.push(key), plans.push(inner);
        }
        return { kind: OBJECT, names, plans, items: null };
      }
      default:
        return null;
    }
  }
  return plan(schema);
}

/**
 * Whether a value that the schema accepted is JSON data (see {@link jsonDataProblems}), reading
 * only what the schema leaves open: each object (for inherited properties) and each free-text
 * string (for unpaired surrogates; strings with a `format`, `pattern` or `enum` match ASCII-only
 * definitions). A closed schema types every value, so nothing else can fail. This is the hot
 * path's version of {@link jsonDataProblems}: no generic traversal.
 *
 * @param schema - a closed JSON Schema whose `$ref`s point into its own `$defs`
 * @returns the check; `true` also for parts not shaped like the schema (the schema refuses those)
 */
export function createDataCheck(schema: JsonSchema): (value: unknown) => boolean {
  const root = planDataCheck(schema);
  function check(value: unknown, node: Plan): boolean {
    if (node.kind === TEXT) return typeof value !== "string" || isText(value);
    if (typeof value !== "object" || value === null) return true;
    if (node.kind === ARRAY) {
      if (!Array.isArray(value)) return true;
      const items = node.items as Plan;
      for (let i = 0; i < value.length; i++) if (!check(value[i], items)) return false;
      return true;
    }
    if (inheritsEnumerable(value)) return false;
    const { names, plans } = node;
    for (let i = 0; i < names.length; i++) if (!check((value as Record<string, unknown>)[names[i] as string], plans[i] as Plan)) return false;
    return true;
  }
  return (value) => root === null || check(value, root);
}
