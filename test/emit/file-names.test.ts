import { describe, expect, it } from "vitest";
import type { CheckedGraph } from "../../src/analysis/model.js";
import { planFileNames, sanitizeFileStem } from "../../src/emit/file-names.js";

function graph(name: string, edges: [string, "delegate" | "return" | "transfer", string][]): CheckedGraph {
  return { name, edges: edges.map(([from, kind, to]) => ({ from, kind, to })) } as unknown as CheckedGraph;
}

describe("output file names", () => {
  it("sanitizes stems and steps around Windows device names", () => {
    expect(sanitizeFileStem("a-b_c")).toBe("a-b_c");
    expect(sanitizeFileStem("a/b c")).toBe("a_b_c");
    expect(sanitizeFileStem("CON")).toBe("_CON");
    expect(sanitizeFileStem("")).toBe("_");
  });

  it("disambiguates clashes, case-insensitively, in a fixed order", () => {
    const planned = planFileNames([
      graph("g", [
        ["x-delegate-y", "delegate", "z"],
        ["x", "delegate", "y-delegate-z"],
        ["A", "transfer", "b"],
        ["a", "transfer", "B"],
      ]),
      graph("G", []),
      graph("nul", []),
    ]);
    expect(planned[0]).toEqual({
      envelope: "g.envelope.schema.json",
      edges: [
        "g.x-delegate-y-delegate-z.schema.json",
        "g.x-delegate-y-delegate-z.2.schema.json",
        "g.A-transfer-b.schema.json",
        "g.a-transfer-B.2.schema.json",
      ],
      module: "g.validators.mjs",
      declarations: "g.validators.d.mts",
      mermaid: "g.mmd",
      dot: "g.dot",
    });
    expect(planned[1]?.envelope).toBe("G.2.envelope.schema.json");
    expect(planned[1]?.module).toBe("G.2.validators.mjs");
    expect(planned[2]?.dot).toBe("_nul.dot");
  });
});
