import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSourceFile, getLineAndColumn, type SourceFile } from "../../src/core/source-file.js";

// getLineAndColumn reads a file made by createSourceFile only as far as the offset asked for;
// every answer, in any order of questions, must be the one of the whole list of line starts.
const numRuns = Number(process.env["SEAM_FUZZ_RUNS"] ?? 500);

const text = fc.array(fc.constantFrom("a", "bc", "\n", "\r", "\r\n", "\n\r", "é"), { maxLength: 60 }).map((parts) => parts.join(""));

describe("getLineAndColumn on a partly scanned file", () => {
  it("agrees with the whole line starts at every offset, asked in any order", () => {
    fc.assert(
      fc.property(text, fc.array(fc.integer({ min: -2, max: 70 }), { maxLength: 40 }), (t, offsets) => {
        const lazy = createSourceFile("f.seam", t);
        const whole = createSourceFile("f.seam", t);
        // A plain object holds no line index: getLineAndColumn reads its full lineStarts.
        const plain: SourceFile = { path: "f.seam", text: t, lineStarts: whole.lineStarts };
        for (const offset of offsets) expect(getLineAndColumn(lazy, offset)).toEqual(getLineAndColumn(plain, offset));
        // Whatever was scanned before, the list handed out is the whole one.
        expect(lazy.lineStarts).toEqual(whole.lineStarts);
        for (const offset of offsets) expect(getLineAndColumn(lazy, offset)).toEqual(getLineAndColumn(plain, offset));
      }),
      { numRuns },
    );
  });
});
