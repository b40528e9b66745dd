import { lines, ruleTable } from "./rule-table.js";

ruleTable("missing-entry", {
  valid: [
    { name: "an entry line", code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "}") },
    { name: "two graphs, each with an entry", code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "}", "graph h {", "  entry b", "  agent b: peer { terminal t }", "}") },
  ],
  invalid: [
    {
      name: "no entry line",
      code: lines("graph «g {", "  agent a: peer { terminal t }", "}"),
      errors: [{ mentions: ["entry a"] }],
    },
    {
      name: "only the second graph lacks one",
      code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "}", "graph «h {", "  agent b: peer { terminal t }", "}"),
      errors: [{ mentions: ["'h'"] }],
    },
  ],
});
