import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findDuplicateKeys, hasDuplicateKeys } from "../../src/runtime/duplicate-keys.js";

describe("findDuplicateKeys", () => {
  const valid: string[] = [
    "{}",
    "[]",
    '"a string"',
    '{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}',
    '{"a": "a", "b": "a"}', // a repeated value is not a repeated key
    '{"a\\"": 1, "a": 2}', // an escaped quote ends no string
    '{"a\\\\": 1, "a": 2}', // an escaped backslash before the closing quote
    '{"x": ["{", "}", ",", "\\"a\\": 1"], "a": 1}',
  ];
  it.each(valid)("none in %s", (text) => {
    expect(findDuplicateKeys(text)).toEqual([]);
    expect(hasDuplicateKeys(text, JSON.parse(text))).toBe(false);
  });

  const invalid: [text: string, found: { pointer: string; key: string }[]][] = [
    ['{"a": 1, "a": 2}', [{ pointer: "/a", key: "a" }]],
    ['{"hop": {"index": 1, "limit": 8, "index": 0}}', [{ pointer: "/hop/index", key: "index" }]],
    ['{"a": 1, "\\u0061": 2}', [{ pointer: "/a", key: "a" }]],
    ['{"list": [{"k": 1}, {"k": 1, "k": 2}]}', [{ pointer: "/list/1/k", key: "k" }]],
    ['{"a/b~": 1, "a/b~": 2}', [{ pointer: "/a~1b~0", key: "a/b~" }]],
    ['{"a": 1, "a": 2, "a": 3}', [{ pointer: "/a", key: "a" }, { pointer: "/a", key: "a" }]],
    ['[{"to": {"id": "x"}, "to": {"id": "y", "id": "z"}}]', [{ pointer: "/0/to", key: "to" }, { pointer: "/0/to/id", key: "id" }]],
  ];
  it.each(invalid)("finds them in %s", (text, found) => {
    expect(findDuplicateKeys(text).map(({ pointer, key }) => ({ pointer, key }))).toEqual(found);
    expect(hasDuplicateKeys(text, JSON.parse(text))).toBe(true);
  });

  it("handles deep nesting without recursion", () => {
    const depth = 100_000;
    const text = `${'{"a":'.repeat(depth)}{"k": 1, "k": 2}${"}".repeat(depth)}`;
    expect(findDuplicateKeys(text)).toEqual([{ pointer: `${"/a".repeat(depth)}/k`, key: "k", offset: 5 * depth + 9 }]);
  });

  it("gives the offset of each repeated key's opening quote", () => {
    expect(findDuplicateKeys('{"a": 1,\n "b": {"a": 2, "a": 3}, "a": 4}')).toEqual([
      { pointer: "/b/a", key: "a", offset: 24 },
      { pointer: "/a", key: "a", offset: 33 },
    ]);
  });

  it("hasDuplicateKeys says so exactly when findDuplicateKeys finds some", () => {
    // Objects written by hand from a few short keys, so that repeats are frequent; whitespace and
    // escapes as JSON allows them.
    const key = fc.constantFrom("a", "b", "\\u0061", "a\\\"", "__proto__", ":", " :", "\\\" :");
    const json: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom("1", "null", '"a"', '":"', '"\\\\"', '" \\t:"', '"\\": "'),
        fc.array(tie("value"), { maxLength: 3 }).map((items) => `[${items.join(",")}]`),
        fc.array(fc.tuple(key, fc.constantFrom("", " ", "\n\t"), tie("value")), { maxLength: 4 }).map((members) => `{${members.map(([k, ws, v]) => `"${k}"${ws}:${v}`).join(",")}}`),
      ),
    })).value;
    fc.assert(
      fc.property(json, (text) => {
        expect(hasDuplicateKeys(text, JSON.parse(text))).toBe(findDuplicateKeys(text).length > 0);
      }),
      { numRuns: 2000 },
    );
  });

  it("hasDuplicateKeys is not misled by colons after a quote inside strings", () => {
    for (const text of ['{"a": ":", "b": "\\": 1"}', '{"a" :\n":x", "a": 2}', '[" :", {":": "x"}]']) {
      expect(hasDuplicateKeys(text, JSON.parse(text))).toBe(findDuplicateKeys(text).length > 0);
    }
    expect(hasDuplicateKeys('{"a" :\n":x", "a": 2}', JSON.parse('{"a" :\n":x", "a": 2}'))).toBe(true);
    expect(hasDuplicateKeys('{"a": ":", "b": "\\": 1"}', JSON.parse('{"a": ":", "b": "\\": 1"}'))).toBe(false);
  });

  it("hasDuplicateKeys is not misled by an enumerable property on Object.prototype", () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto["polluted"] = 1;
    try {
      expect(hasDuplicateKeys('{"a": 1, "a": 2}', JSON.parse('{"a": 1, "a": 2}'))).toBe(true);
      expect(hasDuplicateKeys('{"a": 1}', JSON.parse('{"a": 1}'))).toBe(false);
    } finally {
      delete proto["polluted"];
    }
  });
});
