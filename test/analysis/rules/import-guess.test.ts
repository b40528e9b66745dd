import { describe, expect, it } from "vitest";
import { checkText } from "../../../src/analysis/check.js";
import { getLineAndColumn } from "../../../src/core/source-file.js";
import { lines, ruleTable } from "./rule-table.js";

const graph = (...body: string[]): string => lines("graph g {", "  entry a", ...body, "  agent a: peer { terminal done }", "}");

ruleTable("import-guess", {
  valid: [
    { name: "an ordinary comment", code: graph("  // guessed by hand, seam-guess is not at the start") },
    { name: "a word that only starts like the marker", code: graph("  // seam-guesswork role -- no marker") },
  ],
  invalid: [
    { name: "a line marker", code: graph("  «// seam-guess role -- the source has no roles"), errors: [{ severity: "info", mentions: ["the role on the next line", "(the source has no roles)"] }] },
    { name: "a block marker", code: graph("  «/* seam-guess entry -- first agent */"), errors: [{ severity: "info", mentions: ["the entry on the next line"] }] },
    { name: "one finding per marker", code: graph("  «// seam-guess kind -- a", "  «// seam-guess guard -- b"), errors: [{ severity: "info" }, { severity: "info" }] },
  ],
});

describe("import-guess messages", () => {
  it("reports the whole comment with the exact message", () => {
    const text = graph("  // seam-guess max_rounds -- LangGraph sets no bound");
    const [d] = checkText("g.seam", text).diagnostics;
    expect(d?.rule).toBe("import-guess");
    expect(d?.severity).toBe("info");
    expect(d?.message).toBe(
      "seam import guessed the max_rounds on the next line (LangGraph sets no bound): check it against the source, correct it if needed, then delete this comment.",
    );
    const start = text.indexOf("//");
    expect(d?.range).toEqual({ start, end: text.indexOf("\n", start) });
    expect(getLineAndColumn(d!.file, d!.range.start)).toEqual({ line: 3, column: 3 });
  });

  it("names no subject it does not know, gives no reason it was not given, and escapes what it quotes", () => {
    const found = checkText("g.seam", graph("  // seam-guess colour", "  // seam-guess role -- bidi \u202e here")).diagnostics.map((d) => d.message);
    expect(found).toEqual([
      "seam import guessed the next line: check it against the source, correct it if needed, then delete this comment.",
      "seam import guessed the role on the next line (bidi \\u202e here): check it against the source, correct it if needed, then delete this comment.",
    ]);
  });

  it("is silenced like any rule, and a graph without markers stays clean", () => {
    expect(checkText("g.seam", graph("  // seam-disable-next-line import-guess -- reviewed", "  // seam-guess role -- x")).diagnostics).toEqual([]);
    expect(checkText("g.seam", graph()).diagnostics).toEqual([]);
  });

  it("reads only the markers inside each graph", () => {
    const text = lines("// seam-guess role -- outside", "graph g {", "  entry a", "  agent a: peer { terminal done }", "}", "graph h {", "  entry b", "  // seam-guess role -- inside h", "  agent b: peer { terminal done }", "}");
    expect(checkText("g.seam", text).diagnostics.map((d) => getLineAndColumn(d.file, d.range.start).line)).toEqual([8]);
  });
});
