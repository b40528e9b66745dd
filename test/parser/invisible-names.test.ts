import { describe, expect, it } from "vitest";
import { createSourceFile, getLineAndColumn } from "../../src/core/source-file.js";
import { parse } from "../../src/parser/parse.js";

// An invisible character (Default_Ignorable_Code_Point) inside a name: `bill` and `bill` with
// U+FE00 look the same and would name two agents. The lexer takes none into a name (UAX #31
// section 2.3; Unicode 15.1 made the joiners U+200C/U+200D ID_Continue, and variation selectors,
// U+034F and the Hangul fillers have long been ID_Start or ID_Continue), and says why.
function syntax(text: string) {
  const file = createSourceFile("i.seam", text);
  return parse(file).diagnostics.map((d) => {
    const start = getLineAndColumn(file, d.range.start);
    const end = getLineAndColumn(file, d.range.end);
    return { rule: d.rule, severity: d.severity, range: `${start.line}:${start.column}-${end.line}:${end.column}`, message: d.message };
  });
}

const why = "it is invisible, and a name cannot hold it (two names that look the same would differ); remove it";

describe("names hold no invisible character", () => {
  it.each([
    ["a zero width joiner", "\u200d", "U+200D"],
    ["a zero width non-joiner", "\u200c", "U+200C"],
    ["a variation selector", "\ufe00", "U+FE00"],
    ["a combining grapheme joiner", "\u034f", "U+034F"],
    ["a Mongolian free variation selector", "\u180b", "U+180B"],
  ])("%s inside a name is a syntax error at the character", (_what, invisible, code) => {
    expect(syntax(`graph g {\n  agent a${invisible}b: worker\n}\n`)[0]).toEqual({
      rule: "syntax",
      severity: "error",
      range: "2:10-2:11",
      message: `unexpected character ${code}: ${why}`,
    });
  });

  it("a variation selector after a name: one error, at the selector", () => {
    expect(syntax("graph g {\n  agent bill\ufe00: worker\n}\n")).toEqual([
      { rule: "syntax", severity: "error", range: "2:13-2:14", message: `unexpected character U+FE00: ${why}` },
    ]);
  });

  it("a combining grapheme joiner inside a name, and the name it splits", () => {
    expect(syntax("graph g {\n  agent x\u034fy: worker\n}\n")).toEqual([
      { rule: "syntax", severity: "error", range: "2:10-2:11", message: `unexpected character U+034F: ${why}` },
      { rule: "syntax", severity: "error", range: "2:11-2:12", message: "expected ':' after 'x', found 'y'" },
    ]);
  });

  it("a supplementary variation selector (two UTF-16 code units) after a name", () => {
    expect(syntax("graph g {\n  agent lead\u{E0100}: worker\n}\n")).toEqual([
      { rule: "syntax", severity: "error", range: "2:13-2:15", message: `unexpected character U+E0100: ${why}` },
    ]);
  });

  it("a name of a Hangul filler only, which shows blank", () => {
    expect(syntax("graph g {\n  agent \u3164: worker\n}\n")).toEqual([
      { rule: "syntax", severity: "error", range: "2:9-2:10", message: `unexpected character U+3164: ${why}` },
      { rule: "syntax", severity: "error", range: "2:10-2:11", message: "expected a name after 'agent', found ':'" },
    ]);
  });

  it("a run of several: named each once; a visible character in the run is named too", () => {
    expect(syntax("graph g {\n  agent a\ufe00\ufe01\ufe00: worker\n}\n")[0]).toEqual({
      rule: "syntax",
      severity: "error",
      range: "2:10-2:13",
      message: "unexpected characters U+FE00 U+FE01 U+FE00: they are invisible, and a name cannot hold them (two names that look the same would differ); remove them",
    });
    expect(syntax("graph g {\n  agent a\u00a0\ufe00: worker\n}\n")[0]).toEqual({
      rule: "syntax",
      severity: "error",
      range: "2:10-2:12",
      message: "unexpected characters U+00A0 U+FE00: U+FE00 is invisible, and a name cannot hold it (two names that look the same would differ); remove it",
    });
  });

  it("other unexpected characters keep their message", () => {
    expect(syntax("graph g {\u00a0}")[0]?.message).toBe("unexpected character U+00A0");
  });

  it("an invisible character that is no letter says why only where it touches a name", () => {
    expect(syntax("graph g {\n  agent bi\u200bll: worker\n}\n")[0]).toEqual({
      rule: "syntax",
      severity: "error",
      range: "2:11-2:12",
      message: `unexpected character U+200B: ${why}`,
    });
    expect(syntax("graph g {\n  agent \u{E0100}x: worker\n}\n")[0]?.message).toBe(`unexpected character U+E0100: ${why}`);
    expect(syntax("graph g {\n  agent \u{1D400}\u{E0001}: worker\n}\n")[0]?.message).toBe(`unexpected character U+E0001: ${why}`);
    expect(syntax("graph g {\uFEFF}")[0]?.message).toBe("unexpected character U+FEFF");
    expect(syntax("graph g {\n  agent \u200b: worker\n}\n")[0]?.message).toBe("unexpected character U+200B");
  });

  it("a name without them, in any script, is read whole", () => {
    expect(syntax("graph g {\n  agent \u0930\u093e\u091c: worker\n  agent Gr\u00f6\u00dfe: worker\n  agent caf\u00e9: worker\n  agent \u56f3\u8868: worker\n  agent a-b: worker\n}\n")).toEqual([]);
  });

  it("the trial file: each invisible character is a syntax error at its place", () => {
    const text =
      "graph g {\n  entry lead\n  agent lead: supervisor { terminal t }\n  agent bill: worker\n  agent bill\ufe00: worker\n" +
      "  agent \u3164: worker\n  agent x\u034fy: worker\n  agent xy: worker\n  agent lead\u{E0100}: worker\n" +
      "  delegate lead -> bill\n  delegate lead -> bill\ufe00\n}\n";
    const found = syntax(text).filter((d) => d.message.startsWith("unexpected"));
    expect(found.map((d) => [d.range, d.message.slice(0, d.message.indexOf(":"))])).toEqual([
      ["5:13-5:14", "unexpected character U+FE00"],
      ["6:9-6:10", "unexpected character U+3164"],
      ["7:10-7:11", "unexpected character U+034F"],
      ["9:13-9:15", "unexpected character U+E0100"],
      ["11:24-11:25", "unexpected character U+FE00"],
    ]);
  });
});
