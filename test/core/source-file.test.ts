import { describe, expect, it } from "vitest";
import { createSourceFile, getLineAndColumn, getLineText, getShownLineAndColumn, getShownLineText } from "../../src/core/source-file.js";

describe("source positions", () => {
  const file = createSourceFile("f.seam", "ab\ncd\r\nef\rg");

  it("turns offsets into 1-based lines and columns across LF, CRLF and CR", () => {
    expect(getLineAndColumn(file, 0)).toEqual({ line: 1, column: 1 });
    expect(getLineAndColumn(file, 4)).toEqual({ line: 2, column: 2 });
    expect(getLineAndColumn(file, 7)).toEqual({ line: 3, column: 1 });
    expect(getLineAndColumn(file, 10)).toEqual({ line: 4, column: 1 });
  });

  it("clamps offsets outside the text", () => {
    expect(getLineAndColumn(file, -5)).toEqual({ line: 1, column: 1 });
    expect(getLineAndColumn(file, 999)).toEqual({ line: 4, column: 2 });
  });

  it("gives a line's text without its terminator", () => {
    expect([1, 2, 3, 4, 5].map((line) => getLineText(file, line))).toEqual(["ab", "cd", "ef", "g", ""]);
  });

  it("counts columns in UTF-16 code units", () => {
    const emoji = createSourceFile("e.seam", "😀x");
    expect(getLineAndColumn(emoji, 2)).toEqual({ line: 1, column: 3 });
  });

  it("shows a position as an editor does: a byte order mark at the start takes no column", () => {
    const bom = createSourceFile("b.seam", "\uFEFFgraph g {\n  entry zz\n}");
    expect(getLineAndColumn(bom, 7)).toEqual({ line: 1, column: 8 });
    expect(getShownLineAndColumn(bom, 7)).toEqual({ line: 1, column: 7 });
    expect(getShownLineAndColumn(bom, 0)).toEqual({ line: 1, column: 1 });
    expect(getShownLineAndColumn(bom, 19)).toEqual({ line: 2, column: 9 });
    expect(getShownLineText(bom, 1)).toBe("graph g {");
    expect(getShownLineText(bom, 2)).toBe("  entry zz");
  });

  it("shows a text without a byte order mark as it counts it", () => {
    expect(getShownLineAndColumn(file, 1)).toEqual(getLineAndColumn(file, 1));
    expect(getShownLineText(file, 1)).toBe("ab");
    const later = createSourceFile("l.seam", "a\uFEFFb");
    expect(getShownLineAndColumn(later, 2)).toEqual({ line: 1, column: 3 });
  });
});
