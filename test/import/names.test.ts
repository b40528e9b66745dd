import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { createNameMap, isSeamName, toSeamName } from "../../src/import/names.js";

describe("source names as Seam identifiers", () => {
  it.each([
    ["Research Agent", "Research_Agent"],
    ["research-agent", "research-agent"],
    ["3d-printer", "_3d-printer"],
    ["-x", "_-x"],
    ["a--b", "a-b"],
    ["a-", "a_"],
    ["agent", "agent_"],
    ["supervisor", "supervisor_"],
    ["$price", "_price"],
    ["my.tool:v2", "my_tool_v2"],
    ["zero\u200dwidth", "zero_width"],
    ["bill\ufe00", "bill_"],
    ["x\u034fy", "x_y"],
    ["\u3164", "_"],
    ["bidi\u202eevil", "bidi_evil"],
    ["Übersetzer", "Übersetzer"],
    ["", "_"],
    ["名前", "名前"],
  ])("%j becomes %j, a name the language reads", (source, name) => {
    expect(toSeamName(source)).toBe(name);
    expect(isSeamName(name)).toBe(true);
    const { diagnostics } = checkText("n.seam", `graph g {\n  entry ${name}\n  agent ${name}: peer { terminal done }\n}\n`);
    expect(diagnostics).toEqual([]);
  });

  it("resolves collisions in order, the same way every time, and lists what changed", () => {
    const names = createNameMap();
    expect(["a b", "a_b", "a b", "a-b", "a?b"].map((s) => names.name(s))).toEqual(["a_b", "a_b_2", "a_b", "a-b", "a_b_3"]);
    expect(names.renamed).toEqual([
      { source: "a b", name: "a_b" },
      { source: "a_b", name: "a_b_2" },
      { source: "a?b", name: "a_b_3" },
    ]);
  });

  it("keeps the spelling of each source name that is a Seam name as written, whatever comes before it", () => {
    const sources = ["a b", "a_b", "a b", "a-b", "a?b"];
    const names = createNameMap([], sources);
    expect(sources.map((s) => names.name(s))).toEqual(["a_b_2", "a_b", "a_b_2", "a-b", "a_b_3"]);
    expect(names.renamed).toEqual([
      { source: "a b", name: "a_b_2" },
      { source: "a?b", name: "a_b_3" },
    ]);
    // Without "a b" in the source, "a_b" is still "a_b": removing one agent renames no other.
    expect(createNameMap([], ["a_b", "a?b"]).name("a_b")).toBe("a_b");
  });

  it("knows what is not a name", () => {
    expect(["", "1a", "a b", "agent", "a-", "a$", "x\u200dy", "bill\ufe00", "x\u034fy", "lead\u{E0100}", "\u3164"].filter(isSeamName)).toEqual([]);
  });
});
