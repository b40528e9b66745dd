import { describe, expect, it } from "vitest";
import { compileSchemasToPython, translatePattern } from "../../../src/emit/python/schema-to-python.js";

describe("translatePattern", () => {
  it("makes $ end the text and \\d mean ASCII digits", () => {
    expect(translatePattern("^[0-9]+\\.[0-9]+\\.[0-9]+$")).toBe("^[0-9]+\\.[0-9]+\\.[0-9]+\\Z");
    expect(translatePattern("^\\d[\\d-]$")).toBe("^[0-9][0-9-]\\Z");
    expect(translatePattern("^[$]x")).toBe("^[$]x");
  });

  it("refuses escapes it does not know", () => {
    expect(() => translatePattern("\\w+")).toThrow("internal: pattern escape \\w is not supported in Python output");
  });
});

describe("compileSchemasToPython", () => {
  const schema = (extra: Record<string, unknown>) => ({ $id: "urn:test", type: "object", ...extra });

  it("refuses keywords outside the subset Seam's schemas use", () => {
    expect(() => compileSchemasToPython([schema({ oneOf: [] })], [{ name: "validate", id: "urn:test" }])).toThrow(
      "internal: keyword oneOf is not supported in Python output",
    );
    expect(() => compileSchemasToPython([schema({ properties: { a: { format: "email" } } })], [{ name: "validate", id: "urn:test" }])).toThrow(
      "internal: format email is not supported in Python output",
    );
    expect(() => compileSchemasToPython([schema({ $ref: "urn:elsewhere" })], [{ name: "validate", id: "urn:test" }])).toThrow(
      'internal: $ref "urn:elsewhere" names no known schema',
    );
  });

  it("writes one function per resource, inlines definitions, and writes the entry points", () => {
    const out = compileSchemasToPython(
      [
        schema({ $defs: { n: { type: "integer", minimum: 1 } }, properties: { a: { $ref: "#/$defs/n" }, b: { $ref: "#/$defs/n" } } }),
        { $id: "urn:overlay", $ref: "urn:test", required: ["a"] },
      ],
      [
        { name: "validate", id: "urn:test" },
        { name: "validate_overlay", id: "urn:overlay" },
      ],
    );
    expect(out.code.match(/^def \w+/gm)).toEqual(["def _validate_0", "def _validate_1", "def validate", "def validate_overlay"]);
    expect(out.code.match(/-9007199254740992 < d1 < 9007199254740992/g)).toHaveLength(2);
    expect(out.code).toContain("    _validate_0(data, path, errors)\n");
  });

  it("checks in an integer's fast path only the limits a whole number within 2^53 can break", () => {
    const integer = (limits: Record<string, number>) =>
      compileSchemasToPython([schema({ properties: { n: { type: "integer", ...limits } } })], [{ name: "validate", id: "urn:test" }]).code;
    const fastPath = (code: string): string => {
      const start = code.indexOf("if type(d1) is int and -9007199254740992 < d1 < 9007199254740992:");
      return code.slice(start, code.indexOf("else:", start));
    };
    const widest = integer({ minimum: -9007199254740991, maximum: 9007199254740991 });
    expect(fastPath(widest).split("\n").slice(1).map((line) => line.trim())).toEqual(["pass", ""]);
    // The general path, for a larger int, still checks both.
    expect(widest).toContain("if d1 > 9007199254740991:");
    expect(widest).toContain("if d1 < -9007199254740991:");
    const narrow = fastPath(integer({ minimum: 0, maximum: 100 }));
    expect(narrow).toContain("if d1 > 100:");
    expect(narrow).toContain("if d1 < 0:");
  });
});
