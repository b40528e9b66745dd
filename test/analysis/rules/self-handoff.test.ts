import { lines, ruleTable } from "./rule-table.js";

ruleTable("self-handoff", {
  valid: [{ name: "distinct ends", code: lines("graph g {", "  entry a", "  agent a: peer", "  agent b: peer { terminal t }", "  transfer a -> b", "}") }],
  invalid: [
    {
      name: "an edge to itself",
      code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "  «transfer a -> a { max_rounds 1 }", "}"),
      errors: [{ mentions: ["'a'", "itself"] }],
    },
  ],
});
