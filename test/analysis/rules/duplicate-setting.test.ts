import { lines, ruleTable } from "./rule-table.js";

ruleTable("duplicate-setting", {
  valid: [
    {
      name: "each setting once; several entry lines add up",
      code: lines(
        "graph g {",
        "  envelope 1.3",
        "  entry a",
        "  entry b",
        "  hop_limit 4",
        "  on_hop_limit failed",
        "  loop_signature goal.statement",
        "  contract delegate { require budget.limit }",
        "  contract return { require status }",
        "  agent a: peer { version \"1\" terminal t }",
        "  agent b: peer { terminal t }",
        "  transfer a -> b { max_rounds 1 }",
        "}",
      ),
    },
  ],
  invalid: [
    {
      name: "graph settings twice",
      code: lines(
        "graph g {",
        "  hop_limit 4",
        "  «hop_limit 5",
        "  envelope 1.3",
        "  «envelope 1.2",
        "  on_hop_limit failed",
        "  «on_hop_limit escalate",
        "  loop_signature goal.statement",
        "  «loop_signature goal.statement",
        "  contract transfer { require provenance }",
        "  «contract transfer { require artefacts }",
        "  entry a",
        "  agent a: peer { terminal t }",
        "}",
      ),
      errors: [{ mentions: ["hop_limit"] }, { mentions: ["envelope"] }, { mentions: ["on_hop_limit"] }, { mentions: ["loop_signature"] }, { mentions: ["contract transfer"] }],
    },
    {
      name: "an agent version and an edge's max_rounds twice",
      code: lines(
        "graph g {",
        "  entry a",
        "  agent a: peer { version \"1\" «version \"2\" }",
        "  agent b: peer { terminal t }",
        "  transfer a -> b { max_rounds 1 «max_rounds 2 }",
        "}",
      ),
      errors: [{ mentions: ["agent 'a'"] }, { mentions: ["transfer a -> b"] }],
    },
    {
      name: "an edge's repairs twice",
      code: lines("graph g {", "  entry a", "  agent a: peer", "  agent b: peer { terminal t }", "  transfer a -> b { repairs 1 «repairs 2 }", "}"),
      errors: [{ mentions: ["repairs", "transfer a -> b"] }],
    },
  ],
});
