import { describe, expect, it } from "vitest";
import { MAX_DEPTH, jsonDataProblems } from "../../src/runtime/json-data.js";

const BEYOND = " (a number written past ±1.7976931348623157e308, the largest IEEE 754 double, reads as ±Infinity)";

describe("jsonDataProblems", () => {
  it("finds nothing in what JSON.parse returns", () => {
    expect(jsonDataProblems(JSON.parse('{"a":[1,-2.5e300,"\\ud83d\\ude00",null,true,{"b":{}}],"":0}'))).toEqual([]);
  });

  it("explains that a number past the double range reads as Infinity", () => {
    expect(jsonDataProblems(JSON.parse('{"big":1e400,"small":-1e400}'))).toEqual([
      { path: "/big", rule: "not-json-data", message: `is Infinity, which JSON cannot write${BEYOND}` },
      { path: "/small", rule: "not-json-data", message: `is -Infinity, which JSON cannot write${BEYOND}` },
    ]);
  });

  it("says NaN plainly: no text reads as NaN", () => {
    expect(jsonDataProblems({ n: Number.NaN })).toEqual([{ path: "/n", rule: "not-json-data", message: "is NaN, which JSON cannot write" }]);
  });

  it("names holes, functions, cycles, inherited fields, deep nesting and lone surrogates at their pointers", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic["self"] = cyclic;
    let deep: unknown = 0;
    for (let i = 0; i <= MAX_DEPTH; i++) deep = [deep];
    const value = { hole: [1, , 3], fn: () => 0, cyclic, inherited: Object.create({ x: 1 }), deep, "a/b": "\ud800" };
    expect(jsonDataProblems(value)).toEqual([
      { path: "/hole/1", rule: "not-json-data", message: "is a hole in the array, which JSON cannot write" },
      { path: "/fn", rule: "not-json-data", message: "is a function, which JSON cannot write" },
      { path: "/cyclic/self", rule: "not-json-data", message: "is one of the objects that contain it (a cycle), which JSON text cannot hold" },
      { path: "/inherited", rule: "not-json-data", message: "inherits enumerable properties (made by Object.create from another object): JSON data has own properties only" },
      { path: `/deep${"/0".repeat(MAX_DEPTH - 1)}`, rule: "not-json-data", message: `is nested deeper than ${MAX_DEPTH} levels` },
      { path: "/a~1b", rule: "unpaired-surrogate", message: 'holds an unpaired UTF-16 surrogate: "\\ud800" is not Unicode text' },
    ]);
  });

  it("lists at most 20 problems", () => {
    expect(jsonDataProblems(Array.from({ length: 50 }, () => Number.NaN))).toHaveLength(20);
  });
});
