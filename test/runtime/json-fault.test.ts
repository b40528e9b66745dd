import { describe, expect, it } from "vitest";
import { invalidJsonReason, lineAndColumn } from "../../src/runtime/json-fault.js";

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
