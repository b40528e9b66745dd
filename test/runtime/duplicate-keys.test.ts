import { describe, expect, it } from "vitest";
import { findDuplicateKeys } from "../../src/runtime/duplicate-keys.js";

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
    JSON.parse(text);
    expect(findDuplicateKeys(text)).toEqual([]);
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
    JSON.parse(text);
    expect(findDuplicateKeys(text)).toEqual(found);
  });

  it("handles deep nesting without recursion", () => {
    const depth = 100_000;
    const text = `${'{"a":'.repeat(depth)}{"k": 1, "k": 2}${"}".repeat(depth)}`;
    expect(findDuplicateKeys(text)).toEqual([{ pointer: `${"/a".repeat(depth)}/k`, key: "k" }]);
  });
});
