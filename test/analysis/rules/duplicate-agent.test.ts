import { lines, ruleTable } from "./rule-table.js";

ruleTable("duplicate-agent", {
  valid: [{ name: "distinct ids", code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "  agent b: peer", "  transfer a -> b", "  transfer b -> a { max_rounds 1 }", "}") }],
  invalid: [
    {
      name: "the second declaration is reported",
      code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "  agent «a: worker", "}"),
      errors: [{ mentions: ["'a'", "declared twice"] }],
    },
    {
      name: "three declarations give two reports",
      code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "  agent «a: peer", "  agent «a: peer", "}"),
      errors: [{}, {}],
    },
  ],
});
