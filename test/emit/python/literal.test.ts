import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { py, pyIdentifier, pyLiteral, pyString } from "../../../src/emit/python/literal.js";
import { python } from "./python.js";

const HOSTILE = [
  "",
  'say "hi"',
  "it's",
  '"""',
  "'''",
  "back\\slash\\",
  "\\N{BULLET}",
  "\u0000nul",
  "line\nbreak\r\n",
  "\u2028\u2029\u0085",
  "\ud800 lone high",
  "lone low \udc00",
  "\ud83d\ude00 pair",
  "{braces} %s",
  "\u202e right-to-left",
  "# not a comment",
  "\x7f\x80\xff",
];

describe("pyString", () => {
  it("writes printable ASCII only, with the escapes spelled out", () => {
    expect(pyString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(pyString("\u0000\n\u2028\ud800\ud83d\ude00")).toBe('"\\x00\\n\\u2028\\ud800\\U0001f600"');
    for (const text of HOSTILE) expect(/^"[\x20-\x7e]*"$/.test(pyString(text))).toBe(true);
  });

  it.skipIf(python === undefined)("round-trips every hostile string through Python unchanged", () => {
    const source = `import json\nprint(json.dumps([${HOSTILE.map(pyString).join(", ")}]))`;
    const result = spawnSync(python as string, ["-c", source], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual(HOSTILE);
  });
});

describe("pyLiteral", () => {
  it("writes JSON data as Python constants", () => {
    expect(pyLiteral({ a: [1, 2.5, true, null], "b c": [] })).toBe('{"a": (1, 2.5, True, None), "b c": ()}');
    expect(pyLiteral(["one"])).toBe('("one",)');
    expect(pyLiteral(9007199254740991)).toBe("9007199254740991");
    expect(pyLiteral(-0)).toBe("0");
  });

  it("refuses values with no literal form", () => {
    expect(() => pyLiteral(Number.NaN)).toThrow("internal: cannot emit the number NaN in Python");
    expect(() => pyLiteral(() => 1)).toThrow("internal: cannot emit a value of type function in Python");
    expect(() => pyLiteral(new Date(0))).toThrow("internal: cannot emit a value of type object in Python");
  });
});

describe("pyIdentifier and py", () => {
  it("accepts plain identifiers and refuses keywords and anything else", () => {
    expect(py`${pyIdentifier("validate_contract_1")}(x)`.code).toBe("validate_contract_1(x)");
    expect(() => pyIdentifier("None")).toThrow('internal: "None" is not a Python identifier');
    expect(() => pyIdentifier("a-b")).toThrow('internal: "a-b" is not a Python identifier');
    expect(() => pyIdentifier("é")).toThrow('internal: "é" is not a Python identifier');
  });

  it("writes data holes as literals, never as code", () => {
    expect(py`x = ${'"); import os; ("'}`.code).toBe('x = "\\"); import os; (\\""');
    expect(py`x = ${{ code: "os.system('x')" }}`.code).toBe('x = {"code": "os.system(\'x\')"}');
  });
});
