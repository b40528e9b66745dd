import { describe, expect, it } from "vitest";
import { checkText } from "../../../src/analysis/check.js";
import { lines, ruleTable } from "./rule-table.js";

const code = (hop: string) =>
  lines("graph g {", "  entry a", hop, "  agent a: peer", "  agent b: peer { terminal t }", "  transfer a -> b", "  transfer b -> a { max_rounds 3 }", "}");

ruleTable("hop-limit-approximate", {
  valid: [{ name: "a small graph is searched exactly", code: code("  hop_limit auto") }],
  invalid: [
    {
      name: "the search budget is spent",
      code: code("  hop_limit «auto"),
      options: { hopSearch: { stateBudget: 0, stepBudget: 0 } },
      errors: [{ severity: "info", mentions: ["upper bound", "assigns"] }],
    },
  ],
});

describe("hop-limit-approximate says what was exceeded", () => {
  it("the step budget", () => {
    const text = code("  hop_limit auto");
    const found = checkText("g.seam", text, { hopSearch: { stateBudget: 0, stepBudget: 0 } }).diagnostics.filter((d) => d.rule === "hop-limit-approximate");
    const at = text.indexOf("auto");
    expect(found.map((d) => [d.severity, d.range, d.message])).toEqual([
      [
        "info",
        { start: at, end: at + 4 },
        "graph 'g': the longest walk allowed by max_rounds is at most 7 handoffs (an upper bound: the exact search ran out of its budget of 0 steps); hop_limit auto assigns 8, which is safe but may be more than needed. Declare hop_limit to choose the value yourself.",
      ],
    ]);
  });

  it("a strongly connected component too large for the flow search", () => {
    // A ring of 30 agents with bounded edges; no memoised states allowed.
    const n = 30;
    const text = lines(
      "graph ring {",
      "  entry a0",
      ...Array.from({ length: n }, (_, i) => `  agent a${i}: peer${i === n - 1 ? " { terminal t }" : ""}`),
      ...Array.from({ length: n }, (_, i) => `  transfer a${i} -> a${(i + 1) % n} { max_rounds 2 }`),
      "}",
    );
    const found = checkText("ring.seam", text, { hopSearch: { stateBudget: 0 } }).diagnostics.filter((d) => d.rule === "hop-limit-approximate");
    expect(found.map((d) => d.message)).toEqual([
      "graph 'ring': the longest walk allowed by max_rounds is at most 60 handoffs (an upper bound: a strongly connected component of 30 agents and 30 edges is beyond the exact flow search (at most 24 agents and 64 edges) and has more round states than the memoised search may keep); hop_limit auto assigns 61, which is safe but may be more than needed. Declare hop_limit to choose the value yourself.",
    ]);
  });
});
