import { lines, ruleTable } from "./rule-table.js";

ruleTable("missing-return", {
  valid: [
    {
      name: "the worker returns",
      code: lines("graph g {", "  entry boss", "  agent boss: supervisor { terminal done }", "  agent w: worker", "  delegate boss -> w { max_rounds 1 }", "  return w -> boss", "}"),
    },
    {
      name: "the worker ends the task itself",
      code: lines("graph g {", "  entry boss", "  agent boss: supervisor", "  agent w: worker { terminal done }", "  delegate boss -> w", "}"),
    },
    {
      name: "branches of a fan-out reach their join, one of them in two hops",
      code: lines(
        "graph g {",
        "  entry boss",
        "  agent boss: supervisor",
        "  agent a: worker",
        "  agent b: worker",
        "  agent b2: peer",
        "  agent merge: peer {",
        "    join all of a, b2",
        "    terminal done",
        "  }",
        "  delegate boss -> a { fan_out checks }",
        "  delegate boss -> b { fan_out checks }",
        "  transfer a -> merge",
        "  transfer b -> b2",
        "  transfer b2 -> merge",
        "}",
      ),
    },
  ],
  invalid: [
    {
      name: "neither a return nor a terminal",
      code: lines(
        "graph g {",
        "  entry boss",
        "  agent boss: supervisor { terminal done }",
        "  agent w: worker",
        "  agent x: worker { terminal done }",
        "  «delegate boss -> w",
        "  transfer w -> x",
        "}",
      ),
      errors: [{ severity: "warning", mentions: ["'w'", "'boss'", "return w -> boss"] }],
    },
  ],
});
