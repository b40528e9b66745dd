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
      name: "a branch of a fan-out hands off to a join that waits for it",
      code: lines(
        "graph g {",
        "  entry boss",
        "  agent boss: supervisor",
        "  agent a: worker",
        "  agent b: worker",
        "  agent merge: peer {",
        "    join all of a, b",
        "    terminal done",
        "  }",
        "  delegate boss -> a { fan_out checks }",
        "  delegate boss -> b { fan_out checks }",
        "  transfer a -> merge",
        "  transfer b -> merge",
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
    {
      name: "a branch hands off to an agent whose join does not list it",
      code: lines(
        "graph g {",
        "  entry boss",
        "  agent boss: supervisor",
        "  agent a: worker",
        "  agent b: worker",
        "  agent merge: peer {",
        "    join any of a",
        "    terminal done",
        "  }",
        "  delegate boss -> a { fan_out checks }",
        "  «delegate boss -> b» { fan_out checks }",
        "  transfer a -> merge",
        "  transfer b -> merge",
        "}",
      ),
      errors: [
        {
          severity: "warning",
          message:
            "delegate boss -> b: 'b' neither returns to 'boss' nor has a terminal of its own, so 'boss' keeps accountability for work it never hears back about; add `return b -> boss`, or give 'b' a terminal.",
        },
      ],
    },
  ],
});
