import { describe, expect, it } from "vitest";
import { checkText } from "../../../src/analysis/check.js";
import { lines } from "./rule-table.js";

const graph = (version: string, require = "decisions") =>
  lines(
    "graph g {",
    `  envelope ${version}`,
    "  entry a",
    "  agent a: peer",
    "  agent b: peer { terminal t }",
    `  transfer a -> b { require ${require} }`,
    "}",
  );

function found(text: string, rule: string) {
  return checkText("g.seam", text)
    .diagnostics.filter((d) => d.rule === rule)
    .map((d) => ({ severity: d.severity, range: d.range, message: d.message }));
}

describe("envelope versions in the checker", () => {
  for (const written of ["1.03", "01.3", "1.00"]) {
    it(`refuses the leading zero of envelope ${written}`, () => {
      const text = graph(written);
      const at = text.indexOf(written);
      const fixed = written.split(".").map(Number).join(".");
      expect(found(text, "unsupported-envelope")).toEqual([
        {
          severity: "error",
          range: { start: at, end: at + written.length },
          message: `envelope ${written} has a leading zero: versions are written without them; write \`envelope ${fixed}\`.`,
        },
      ]);
    });
  }

  it("accepts every version from 1.0 to 1.3 written plainly", () => {
    for (const v of ["1.0", "1.1", "1.2", "1.3"]) expect(found(graph(v), "unsupported-envelope")).toEqual([]);
  });

  it("a field added in 1.3 does not exist in an envelope 1.0 graph", () => {
    const text = graph("1.0", "safe_resume");
    const at = text.indexOf("safe_resume");
    expect(found(text, "unknown-field")).toEqual([
      {
        severity: "error",
        range: { start: at, end: at + "safe_resume".length },
        message: "field 'safe_resume' in require of transfer a -> b does not exist in envelope 1.0: envelope 1.3 added it; write `envelope 1.3` or later, or drop the path.",
      },
    ]);
    expect(found(graph("1.3", "safe_resume"), "unknown-field")).toEqual([]);
  });

  it("a 1.2 graph's return edges do not require status; a 1.3 graph's do", () => {
    const text = (v: string) =>
      lines("graph g {", `  envelope ${v}`, "  entry s", "  agent s: supervisor { terminal t }", "  agent w: worker", "  delegate s -> w { max_rounds 1 }", "  return w -> s", "}");
    expect(checkText("g.seam", text("1.2")).graphs[0]?.edges[1]?.require).toEqual(["artefacts"]);
    expect(checkText("g.seam", text("1.3")).graphs[0]?.edges[1]?.require).toEqual(["artefacts", "status"]);
  });
});
