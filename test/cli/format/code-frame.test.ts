import { describe, expect, it } from "vitest";
import { CODE_FRAME_WIDTH, frameLine, layoutLine } from "../../../src/cli/format/code-frame.js";
import { codePointWidth } from "../../../src/cli/format/display-width.js";

/** Display columns of printed text (the frame's own output holds no tabs or controls). */
function width(text: string): number {
  let columns = 0;
  for (const char of text) columns += codePointWidth(char.codePointAt(0) as number);
  return columns;
}

/** Frames the first occurrence of `flagged` in `line`. */
function frame(line: string, flagged: string, maxWidth?: number) {
  const from = line.indexOf(flagged);
  return frameLine(layoutLine(line), from, from + flagged.length, maxWidth);
}

/** The printed text from the caret's display column on. */
function fromCaret(text: string, caretColumn: number): string {
  let columns = 0;
  let i = 0;
  for (const char of text) {
    if (columns >= caretColumn) break;
    columns += codePointWidth(char.codePointAt(0) as number);
    i += char.length;
  }
  return text.slice(i);
}

describe("frameLine", () => {
  it("prints a line that fits whole, caret under the range", () => {
    expect(frame("  transfer a -> bee", "bee")).toEqual({ text: "  transfer a -> bee", caretColumn: 16, caretWidth: 3 });
  });

  it("expands tabs to stops of four", () => {
    expect(frame("\tagent\tbee", "bee")).toEqual({ text: "    agent   bee", caretColumn: 12, caretWidth: 3 });
  });

  it("clips a long line to the window around the range, with an ellipsis at each cut end", () => {
    const line = `${"a".repeat(500)} target ${"b".repeat(500)}`;
    const framed = frame(line, "target");
    expect(width(framed.text)).toBe(CODE_FRAME_WIDTH);
    expect(framed.text.startsWith("\u2026a")).toBe(true);
    expect(framed.text.endsWith("b\u2026")).toBe(true);
    expect(fromCaret(framed.text, framed.caretColumn).startsWith("target ")).toBe(true);
    expect(framed.caretWidth).toBe(6);
  });

  it("keeps the start of the line when the range is near it, and the end when the range is near that", () => {
    const line = `start ${"x".repeat(1000)} end`;
    const head = frame(line, "start");
    expect(head.text.startsWith("start x")).toBe(true);
    expect(head.text.endsWith("\u2026")).toBe(true);
    expect(head.caretColumn).toBe(0);
    const tail = frame(line, "end");
    expect(tail.text.startsWith("\u2026")).toBe(true);
    expect(tail.text.endsWith("x end")).toBe(true);
    expect(fromCaret(tail.text, tail.caretColumn)).toBe("end");
    const atEnd = frameLine(layoutLine(line), line.length, line.length);
    expect(fromCaret(atEnd.text, atEnd.caretColumn)).toBe("");
    expect(atEnd.caretWidth).toBe(1);
  });

  it("underlines a range wider than the window up to the window's end", () => {
    const line = `${"a".repeat(300)}${"r".repeat(400)}${"b".repeat(300)}`;
    const framed = frame(line, "r".repeat(400));
    expect(fromCaret(framed.text, framed.caretColumn).startsWith("rrr")).toBe(true);
    expect(framed.caretColumn + framed.caretWidth).toBe(CODE_FRAME_WIDTH - 1);
  });

  it("counts wide characters as two columns, and leaves out one cut by the window's edge", () => {
    const wide = "\u65e5\u672c";
    expect(frame(`${wide} x`, "x")).toEqual({ text: `${wide} x`, caretColumn: 5, caretWidth: 1 });
    const line = `${"\u65e5".repeat(300)} target ${"\u{1f600}".repeat(300)}`;
    for (const maxWidth of [40, 41]) {
      const framed = frame(line, "target", maxWidth);
      expect(width(framed.text)).toBe(maxWidth);
      expect(fromCaret(framed.text, framed.caretColumn).startsWith("target ")).toBe(true);
    }
  });

  it("shows control characters as Control Pictures symbols, one column each", () => {
    const framed = frame("a\u0000\u0007\u001b\u007f\u0085b", "b");
    expect(framed.text).toBe("a\u2400\u2407\u241b\u2421\ufffdb");
    expect(framed.caretColumn).toBe(6);
  });

  it("shows bidirectional and invisible format characters as U+FFFD, one column each", () => {
    const framed = frame("x \u202e\u2066\u200b\ufeff // y", "y");
    expect(framed.text).toBe("x \ufffd\ufffd\ufffd\ufffd // y");
    expect(framed.caretColumn).toBe(10);
  });

  it("leaves ordinary non-ASCII text as it is", () => {
    expect(frame("agent caf\u00e9", "caf").text).toBe("agent caf\u00e9");
  });
});
