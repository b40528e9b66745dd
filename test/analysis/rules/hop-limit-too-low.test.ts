import { lines, ruleTable } from "./rule-table.js";

// Shortest walk a -> b -> c (2 handoffs); H = 4 (a -> b -> a -> b -> c, the bounded b -> a once).
const body = [
  "  agent a: peer",
  "  agent b: peer",
  "  agent c: peer { terminal t }",
  "  transfer a -> b",
  "  transfer b -> a { max_rounds 1 }",
  "  transfer b -> c",
];

ruleTable("hop-limit-too-low", {
  valid: [
    { name: "H + 1", code: lines("graph g {", "  entry a", "  hop_limit 5", ...body, "}") },
    { name: "auto", code: lines("graph g {", "  entry a", "  hop_limit auto", ...body, "}") },
  ],
  invalid: [
    {
      name: "at most the shortest walk: error",
      code: lines("graph g {", "  entry a", "  hop_limit «2", ...body, "}"),
      errors: [{ severity: "error", mentions: ["a -> b -> c", "at least 3"] }],
    },
    {
      name: "at most H: warning",
      code: lines("graph g {", "  entry a", "  hop_limit «4", ...body, "}"),
      errors: [{ severity: "warning", mentions: ["4 handoffs", "raise hop_limit to 5"] }],
    },
    {
      name: "a longest walk of one handoff is said in the singular",
      code: lines("graph g {", "  entry a", "  hop_limit «1", "  agent a: peer", "  agent b: peer { terminal t }", "  transfer a -> b", "}"),
      errors: [{ severity: "error", mentions: ["takes 1 handoff,", "at least 2"] }],
    },
    {
      name: "an entry with a terminal and hop_limit 0",
      code: lines("graph g {", "  entry c", "  hop_limit «0", ...body, "}"),
      errors: [{ severity: "error", mentions: ["at least 1"] }],
    },
  ],
});
