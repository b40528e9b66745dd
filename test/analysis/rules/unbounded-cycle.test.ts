import { lines, ruleTable } from "./rule-table.js";

ruleTable("unbounded-cycle", {
  valid: [
    {
      name: "a bounded loop",
      code: lines("graph g {", "  entry a", "  agent a: peer", "  agent b: peer { terminal t }", "  transfer a -> b", "  transfer b -> a { max_rounds 2 }", "}"),
    },
    {
      name: "a loop no terminal can be reached from (no-terminal-path says so)",
      code: lines("graph g {", "  entry a", "  agent a: peer", "  agent b: peer", "  transfer a -> b", "  transfer b -> a", "}"),
    },
    {
      name: "a loop nobody reaches",
      code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "  agent b: peer { terminal t }", "  agent c: peer", "  transfer b -> c", "  transfer c -> b", "}"),
    },
  ],
  invalid: [
    {
      name: "a two-agent loop",
      code: lines(
        "graph g {",
        "  entry triage",
        "  agent triage: peer { terminal t }",
        "  agent billing: peer",
        "  «transfer triage -> billing",
        "  transfer billing -> triage",
        "}",
      ),
      errors: [{ severity: "warning", mentions: ["triage -> billing -> triage", "max_rounds"] }],
    },
    {
      name: "a bounded edge elsewhere does not bound the inner loop",
      code: lines(
        "graph g {",
        "  entry a",
        "  agent a: peer { terminal t }",
        "  agent b: peer",
        "  agent c: peer",
        "  transfer a -> b",
        "  «transfer b -> c",
        "  transfer c -> b",
        "  transfer b -> a { max_rounds 1 }",
        "}",
      ),
      errors: [{ severity: "warning", mentions: ["b -> c -> b"] }],
    },
  ],
});
