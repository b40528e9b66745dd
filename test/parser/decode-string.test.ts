import { describe, expect, it } from "vitest";
import { decodeString } from "../../src/parser/decode-string.js";

describe("decodeString", () => {
  it.each([
    ['""', ""],
    ['"plain"', "plain"],
    ['"q\\"q"', 'q"q'],
    ['"b\\\\s"', "b\\s"],
    ['"n\\nt\\t"', "n\nt\t"],
    ['"\\u00e9\\u2028"', "\u00e9\u2028"],
  ])("decodes %s", (image, value) => {
    expect(decodeString(image)).toEqual({ value, problems: [] });
  });

  it("reports a bad escape at its offset and keeps it as written", () => {
    expect(decodeString('"a\\qb"')).toEqual({
      value: "a\\qb",
      problems: [{ offset: 2, length: 2, message: expect.stringContaining("invalid escape '\\q'") }],
    });
    expect(decodeString('"\\u12"').problems[0]?.offset).toBe(1);
  });

  it("reports a missing closing quote, including one that is escaped", () => {
    expect(decodeString('"open').problems.map((p) => p.message)).toEqual([
      expect.stringContaining("unterminated string"),
    ]);
    expect(decodeString('"open\\"').problems.map((p) => p.offset)).toEqual([0]);
    expect(decodeString('"').problems).toHaveLength(1);
  });
});
