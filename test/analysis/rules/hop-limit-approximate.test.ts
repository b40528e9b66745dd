import { lines, ruleTable } from "./rule-table.js";

const code = (hop: string) =>
  lines("graph g {", "  entry a", hop, "  agent a: peer", "  agent b: peer { terminal t }", "  transfer a -> b", "  transfer b -> a { max_rounds 3 }", "}");

ruleTable("hop-limit-approximate", {
  valid: [{ name: "a small graph is searched exactly", code: code("  hop_limit auto") }],
  invalid: [
    {
      name: "the search budget is spent",
      code: code("  hop_limit «auto"),
      options: { hopSearch: { stateBudget: 0 } },
      errors: [{ severity: "info", mentions: ["upper bound", "assigns"] }],
    },
  ],
});
