import { describe, expect, it } from "vitest";
import { findJsonFault, invalidJsonReason, lineAndColumn } from "../../src/runtime/json-fault.js";

describe("findJsonFault", () => {
  it("finds nothing in JSON text nested within the limit", () => {
    for (const text of ['{"a": [1, -0.5e+3, "x\\u00e9\\n", true, false, null, {}]}', " 0 ", '"\\ud800"', "[[[]]]"]) expect(findJsonFault(text, 3)).toBeUndefined();
  });

  it.each([
    ["", "empty", 0],
    ["  ", "empty", 2],
    ["[1,", "truncated", 3],
    ['{"a"', "truncated", 4],
    ["x", "value", 0],
    ["[1,]", "value", 3],
    ["{,}", "key", 1],
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

  it("stops at the first fault, a syntax error before a bracket past the limit included", () => {
    expect(findJsonFault("[x, [[[", 2)).toEqual({ kind: "value", offset: 1 });
    expect(findJsonFault("[[[x", 2)).toEqual({ kind: "depth", offset: 2 });
  });
});

describe("lineAndColumn", () => {
  it("counts lines at line feeds and columns in code points, from 1", () => {
    const text = 'a\r\n😀\ud800x\n"';
    expect(lineAndColumn(text, 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn(text, 3)).toEqual({ line: 2, column: 1 });
    expect(lineAndColumn(text, text.indexOf("x"))).toEqual({ line: 2, column: 3 });
    expect(lineAndColumn(text, text.length)).toEqual({ line: 3, column: 2 });
  });
});

describe("invalidJsonReason", () => {
  it("renders the catalogue's message for the fault, the control character by its code point", () => {
    expect(invalidJsonReason('{"a":\n"\u001b"}')).toEqual({ path: "", rule: "invalid-json", message: "is not JSON: the control character U+001B at line 2, column 2 must be escaped in a string (\\n, \\t, \\u0000)" });
    expect(invalidJsonReason("[]")).toEqual({ path: "", rule: "invalid-json", message: "could not be read by the JSON parser, though no fault was found in it" });
  });
});
