import { lines, ruleTable } from "./rule-table.js";

ruleTable("duplicate-edge", {
  valid: [
    {
      name: "the same pair in both directions",
      code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "  agent b: peer", "  transfer a -> b", "  transfer b -> a { max_rounds 1 }", "}"),
    },
  ],
  invalid: [
    {
      name: "an edge written twice",
      code: lines("graph g {", "  entry a", "  agent a: peer", "  agent b: peer { terminal t }", "  transfer a -> b", "  «transfer a -> b { require provenance }", "}"),
      errors: [{ mentions: ["transfer a -> b"] }],
    },
    {
      name: "an edge to an undeclared agent written twice, and the same pair of another kind once",
      code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "  transfer a -> ghost", "  delegate a -> ghost", "  «transfer a -> ghost", "}"),
      errors: [{ mentions: ["transfer a -> ghost"] }],
    },
  ],
});
