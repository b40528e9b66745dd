import { lines, ruleTable } from "./rule-table.js";

ruleTable("unknown-agent", {
  valid: [
    {
      name: "every name declared",
      code: lines("graph g {", "  entry a", "  agent a: peer", "  agent b: peer { terminal done }", "  transfer a -> b", "}"),
    },
  ],
  invalid: [
    {
      name: "a typo in an edge target, with a suggestion",
      code: lines(
        "graph g {",
        "  entry a",
        "  agent a: peer",
        "  agent researcher_tools: peer { terminal done }",
        "  transfer a -> «researcher_tool",
        "}",
      ),
      errors: [{ mentions: ["researcher_tool", "did you mean 'researcher_tools'?"] }],
    },
    {
      name: "an unknown entry and an unknown source, no close name",
      code: lines("graph g {", "  entry «zeta", "  agent a: peer { terminal done }", "  transfer «qqq -> a", "}"),
      errors: [{ mentions: ["zeta", "declare it"] }, { mentions: ["qqq"] }],
    },
    {
      name: "a name differing only in case",
      code: lines("graph g {", "  entry «Intake", "  agent intake: supervisor { terminal done }", "}"),
      errors: [{ mentions: ["did you mean 'intake'?"] }],
    },
  ],
});
