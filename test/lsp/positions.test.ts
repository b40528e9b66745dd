import { describe, expect, it } from "vitest";
import { createSourceFile } from "../../src/core/source-file.js";
import { toOffset, toPosition } from "../../src/lsp/positions.js";

describe("LSP positions", () => {
  const file = createSourceFile("p.seam", "a🎉b\r\ncé\rd\n");
  // Offsets: a0 🎉1-2 b3 \r4 \n5 | c6 é7 \r8 | d9 \n10 | (end 11)

  it("counts UTF-16 code units within a line (a surrogate pair is two)", () => {
    expect(toPosition(file, 3)).toEqual({ line: 0, character: 3 });
    expect(toOffset(file, { line: 0, character: 3 })).toBe(3);
  });

  it("ends lines at CRLF, lone CR and LF alike", () => {
    expect(toPosition(file, 6)).toEqual({ line: 1, character: 0 });
    expect(toPosition(file, 9)).toEqual({ line: 2, character: 0 });
    expect(toPosition(file, 11)).toEqual({ line: 3, character: 0 });
    expect(toOffset(file, { line: 2, character: 0 })).toBe(9);
  });

  it("clamps a character past the line's end to the end of the line, before its terminator", () => {
    expect(toOffset(file, { line: 0, character: 99 })).toBe(4);
    expect(toOffset(file, { line: 1, character: 99 })).toBe(8);
  });

  it("clamps a line past the last to the end of the text, and an offset past the end to the last position", () => {
    expect(toOffset(file, { line: 9, character: 0 })).toBe(11);
    expect(toPosition(file, 99)).toEqual({ line: 3, character: 0 });
  });
});
