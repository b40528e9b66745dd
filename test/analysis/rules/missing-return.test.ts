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
