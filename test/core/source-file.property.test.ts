import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { carryLineStarts, createSourceFile, getLineAndColumn, type SourceFile } from "../../src/core/source-file.js";

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

describe("carryLineStarts", () => {
  it("gives an edited text the positions of a fresh file, whatever the last text had scanned", () => {
    let carried = 0;
    fc.assert(
      fc.property(
        text,
        fc.nat(),
        fc.nat(4),
        text,
        fc.array(fc.integer({ min: -2, max: 70 }), { maxLength: 5 }),
        fc.array(fc.integer({ min: -2, max: 130 }), { maxLength: 30 }),
        (t, where, removed, inserted, readBefore, offsets) => {
          const from = where % (t.length + 1);
          const oldTo = Math.min(t.length, from + removed);
          const edited = t.slice(0, from) + inserted + t.slice(oldTo);
          const previous = createSourceFile("f.seam", t);
          // The last text's index as far as its own questions read it (perhaps not at all).
          for (const offset of readBefore) getLineAndColumn(previous, offset);
          const next = createSourceFile("f.seam", edited);
          if (carryLineStarts(previous, next, { from, oldTo, newTo: from + inserted.length })) carried++;
          const whole = createSourceFile("f.seam", edited);
          const plain: SourceFile = { path: "f.seam", text: edited, lineStarts: whole.lineStarts };
          for (const offset of offsets) expect(getLineAndColumn(next, offset)).toEqual(getLineAndColumn(plain, offset));
          expect(next.lineStarts).toEqual(whole.lineStarts);
        },
      ),
      { numRuns },
    );
    // Not vacuous: many edits touched no line break, and their starts were carried.
    expect(carried).toBeGreaterThan(numRuns / 25);
  });
});
