import { lines, ruleTable } from "./rule-table.js";

ruleTable("unreachable-agent", {
  valid: [
    { name: "all reached", code: lines("graph g {", "  entry a", "  agent a: peer", "  agent b: peer { terminal t }", "  transfer a -> b", "}") },
    { name: "no entry at all (missing-entry says so)", code: lines("graph g {", "  agent a: peer { terminal t }", "}") },
  ],
  invalid: [
    {
      name: "an island",
      code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "  agent «b: peer { terminal t }", "}"),
      errors: [{ severity: "warning", mentions: ["'b'", "'a'"] }],
    },
    {
      name: "only reached through a max_rounds 0 edge",
      code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "  agent «b: peer { terminal t }", "  transfer a -> b { max_rounds 0 }", "}"),
      errors: [{ severity: "warning" }],
    },
  ],
});
