/**
 * Is a value what `JSON.parse` could have returned? `accept()` takes JavaScript values, and a
 * JSON Schema validator reads them as JSON (RFC 8259) data: it follows inherited properties and
 * getters like any JavaScript code, and says nothing about text that is not Unicode. What passes
 * here is data every later step (loop signatures, RFC 8785 canonical JSON, logs) can handle:
 * - objects are plain (their prototype is `Object.prototype` of some realm, or `null`), so every
 *   property read is an own property: `Object.create(valid)` is not valid;
 * - arrays have no holes; numbers are finite; there is no `undefined`, function, symbol or bigint;
 * - no object is reached twice (JSON text is a tree: no cycles, no shared parts);
 * - strings and property names are Unicode text: no unpaired UTF-16 surrogate (RFC 8259
 *   section 8.2; I-JSON, RFC 7493 section 2.1, forbids them, and RFC 8785 cannot encode them);
 * - nesting is at most {@link MAX_DEPTH} levels deep.
 */
import { quoteUntrusted } from "../core/untrusted-text.js";
import { appendPointer } from "./json-pointer.js";
import { reason, type Reason } from "./reason.js";

/** The deepest nesting accepted: far beyond the envelope's own (6 levels), far below a stack overflow. */
export const MAX_DEPTH = 64;

/** At most this many problems are listed; a hostile value could otherwise fill a log. */
const MAX_PROBLEMS = 20;

interface WellFormed {
  isWellFormed(): boolean;
}

/** ES2024 `String.prototype.isWellFormed` (Node 20 has it; the project's `lib` is ES2022). */
function isText(text: string): boolean {
  return (text as unknown as WellFormed).isWellFormed();
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

function describe(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : `is ${String(value)}, which JSON cannot write`;
    case "undefined":
      return "is undefined (a missing array item or a property set to undefined)";
    case "object":
      return undefined;
    default:
      return `is a ${typeof value}, which JSON cannot write`;
  }
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
  const visited = new Set<object>();
  const path: (string | number)[] = [];
  const pointer = (last?: string | number): string => {
    let text = "";
    for (const token of path) text = appendPointer(text, token);
    return last === undefined ? text : appendPointer(text, last);
  };

  function walk(item: unknown, depth: number): void {
    if (problems.length >= MAX_PROBLEMS) return;
    if (typeof item === "string") {
      if (!isText(item)) problems.push(reason(pointer(), "unpaired-surrogate", `holds an unpaired UTF-16 surrogate: ${quoteUntrusted(item)} is not Unicode text`));
      return;
    }
    if (typeof item !== "object" || item === null) {
      const problem = describe(item);
      if (problem !== undefined) problems.push(reason(pointer(), "not-json-data", problem));
      return;
    }
    if (visited.has(item)) {
      problems.push(reason(pointer(), "not-json-data", "is an object reached a second time (a cycle or a shared part), which JSON text cannot hold"));
      return;
    }
    visited.add(item);
    if (depth >= MAX_DEPTH) {
      problems.push(reason(pointer(), "not-json-data", `is nested deeper than ${MAX_DEPTH} levels`));
      return;
    }
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        if (!(i in item)) {
          problems.push(reason(pointer(i), "not-json-data", "is a hole in the array, which JSON cannot write"));
          if (problems.length >= MAX_PROBLEMS) return;
          continue;
        }
        path.push(i);
        walk(item[i], depth + 1);
        path.pop();
      }
      return;
    }
    if (!isPlainObject(item)) {
      problems.push(reason(pointer(), "not-json-data", "is not a plain object (a class instance, or made by Object.create): only own properties of plain objects are read"));
      return;
    }
    for (const key of Object.keys(item)) {
      if (!isText(key)) {
        problems.push(reason(pointer(key), "unpaired-surrogate", `has a property name with an unpaired UTF-16 surrogate, ${quoteUntrusted(key)}`));
        if (problems.length >= MAX_PROBLEMS) return;
      }
      path.push(key);
      walk((item as Record<string, unknown>)[key], depth + 1);
      path.pop();
    }
  }

  walk(value, 0);
  return problems;
}
