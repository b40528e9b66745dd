import { lines, ruleTable } from "./rule-table.js";

const body = ["  entry a", "  agent a: peer { terminal t }", "}"];

ruleTable("duplicate-graph", {
  valid: [{ name: "two graphs with different names", code: lines("graph first {", ...body, "graph second {", ...body) }],
  invalid: [
    {
      name: "the second graph of the same name",
      code: lines("graph desk {", ...body, "graph «desk {", ...body),
      errors: [{ mentions: ["'desk' is declared twice", "rename one"] }],
    },
  ],
});
