import { lines, ruleTable } from "./rule-table.js";

const agents = [
  "  agent boss: supervisor { terminal done }",
  "  agent lead: supervisor",
  "  agent w: worker { terminal done }",
  "  agent p: peer { terminal done }",
];

ruleTable("role-mismatch", {
  valid: [
    {
      name: "every kind between allowed roles",
      code: lines(
        "graph g {",
        "  entry boss",
        ...agents,
        "  delegate boss -> lead { max_rounds 1 }",
        "  delegate lead -> w { max_rounds 1 }",
        "  return w -> lead",
        "  return lead -> boss",
        "  transfer w -> p",
        "}",
      ),
    },
  ],
  invalid: [
    {
      name: "delegate from a worker and to a peer",
      code: lines("graph g {", "  entry boss", ...agents, "  delegate «w -> «p", "  delegate boss -> «p", "}"),
      errors: [{ mentions: ["'w' is a worker"] }, { mentions: ["'p' is a peer"] }, { mentions: ["'p' is a peer"] }],
    },
    {
      name: "return to a supervisor that never delegated",
      code: lines("graph g {", "  entry boss", ...agents, "  «return w -> boss", "}"),
      errors: [{ mentions: ["'boss' never delegates to 'w'", "delegate boss -> w"] }],
    },
    {
      name: "return from a peer and to a worker",
      code: lines("graph g {", "  entry boss", ...agents, "  return «p -> «w", "}"),
      errors: [{ mentions: ["peer"] }, { mentions: ["'w' is a worker"] }],
    },
    {
      name: "transfer from and to a supervisor",
      code: lines("graph g {", "  entry boss", ...agents, "  transfer «boss -> w", "  transfer w -> «lead", "}"),
      errors: [{ mentions: ["'boss' should delegate"] }, { mentions: ["'lead' is a supervisor"] }],
    },
  ],
});
