import { lines, ruleTable } from "./rule-table.js";

ruleTable("max-rounds-zero", {
  valid: [{ name: "one round", code: lines("graph g {", "  entry a", "  agent a: peer", "  agent b: peer { terminal t }", "  transfer a -> b { max_rounds 1 }", "}") }],
  invalid: [
    {
      name: "zero rounds",
      code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "  agent b: peer { terminal t }", "  transfer a -> b { max_rounds «0 }", "}"),
      errors: [{ mentions: ["transfer a -> b", "at least 1"] }],
    },
  ],
});
