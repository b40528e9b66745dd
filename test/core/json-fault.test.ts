import { describe, expect, it } from "vitest";
import { findJsonFault } from "../../src/core/json-fault.js";

describe("findJsonFault", () => {
  it("finds nothing in JSON text nested within the limit", () => {
    for (const text of ['{"a": [1, -0.5e+3, "x\\u00e9\\n", true, false, null, {}]}', " 0 ", '"\\ud800"', "[[[]]]"]) expect(findJsonFault(text, 3)).toBeUndefined();
  });

  it.each([
    ["", "empty", 0],
    ["  ", "empty", 2],
    ["x", "value", 0],
    ["[1,]", "value", 3],
    ['{"a",', "colon", 4],
    ['{"a":1 2', "object-next", 7],
    ["[1 2", "array-next", 3],
    ["1 2", "after", 2],
    ['["ab', "unclosed", 1],
    ['"\\u00', "unclosed", 0],
    ['"a\tb"', "control", 2],
    ['"\\a"', "escape", 1],
    ['"\\u00g0"', "unicode", 1],
    ["-012", "leading-zero", 0],
    ["-", "digit", 1],
    ["1.e5", "digit", 2],
    ["1e+", "digit", 3],
    ["[[[", "depth", 2],
    ['{"a":{"b":{', "depth", 10],
  ] as const)("places %j as %s at offset %i", (text, kind, offset) => {
    expect(findJsonFault(text, 2)).toEqual({ kind, offset });
  });

  it("says what a text that breaks off wanted there, and whether an opening bracket or brace came just before", () => {
    expect(findJsonFault("[1,", 2)).toEqual({ kind: "truncated", offset: 3, expected: "value" });
    expect(findJsonFault("[", 2)).toEqual({ kind: "truncated", offset: 1, expected: "value", first: true });
    expect(findJsonFault('{"a"', 2)).toEqual({ kind: "truncated", offset: 4, expected: "colon" });
    expect(findJsonFault('{"a":1', 2)).toEqual({ kind: "truncated", offset: 6, expected: "object-next" });
    expect(findJsonFault("[1", 2)).toEqual({ kind: "truncated", offset: 2, expected: "array-next" });
    expect(findJsonFault('{"a":1,', 2)).toEqual({ kind: "truncated", offset: 7, expected: "key" });
    expect(findJsonFault("{", 2)).toEqual({ kind: "truncated", offset: 1, expected: "key", first: true });
  });

  it("marks a value or key wanted right after an opening bracket or brace", () => {
    expect(findJsonFault("{,}", 2)).toEqual({ kind: "key", offset: 1, first: true });
    expect(findJsonFault('{"a":1,,}', 2)).toEqual({ kind: "key", offset: 7 });
    expect(findJsonFault("[,1]", 2)).toEqual({ kind: "value", offset: 1, first: true });
  });

  it("stops at the first fault, a syntax error before a bracket past the limit included", () => {
    expect(findJsonFault("[x, [[[", 2)).toEqual({ kind: "value", offset: 1, first: true });
    expect(findJsonFault("[[[x", 2)).toEqual({ kind: "depth", offset: 2 });
  });
});
