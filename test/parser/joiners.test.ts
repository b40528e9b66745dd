import { describe, expect, it } from "vitest";
import { createSourceFile, getLineAndColumn } from "../../src/core/source-file.js";
import { parse } from "../../src/parser/parse.js";

// A zero width joiner or non-joiner inside a name is invisible: `a\u200Db` reads as `ab` and
// would name another agent. The lexer does not take them into names (Unicode 15.1 made them
// ID_Continue; UAX #31 leaves it to each language), and says why.
function syntax(text: string) {
  const file = createSourceFile("j.seam", text);
  return parse(file).diagnostics.map((d) => {
    const start = getLineAndColumn(file, d.range.start);
    const end = getLineAndColumn(file, d.range.end);
    return { rule: d.rule, severity: d.severity, range: `${start.line}:${start.column}-${end.line}:${end.column}`, message: d.message };
  });
}

describe("names refuse the invisible joiners U+200C and U+200D", () => {
  it.each([
    ["a zero width joiner", "\u200d", "U+200D"],
    ["a zero width non-joiner", "\u200c", "U+200C"],
  ])("%s inside a name is a syntax error at the joiner", (_what, joiner, code) => {
    const found = syntax(`graph g {\n  agent a${joiner}b: worker\n}\n`);
    expect(found[0]).toEqual({
      rule: "syntax",
      severity: "error",
      range: "2:10-2:11",
      message: `unexpected character ${code}: a name cannot hold the invisible joiners U+200C and U+200D, since two names that look the same would differ; remove it`,
    });
  });

  it("a name without them, in any script, is read whole", () => {
    expect(syntax("graph g {\n  agent \u0930\u093e\u091c: worker\n  agent Gr\u00f6\u00dfe: worker\n}\n")).toEqual([]);
  });
});
