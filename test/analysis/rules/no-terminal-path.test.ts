import { lines, ruleTable } from "./rule-table.js";

ruleTable("no-terminal-path", {
  valid: [
    {
      name: "every reachable agent can finish",
      code: lines("graph g {", "  entry a", "  agent a: peer", "  agent b: peer { terminal t }", "  transfer a -> b", "  transfer b -> a { max_rounds 1 }", "}"),
    },
    {
      name: "an agent whose only way out names an undeclared agent is left to unknown-agent",
      code: lines("graph g {", "  entry a", "  agent a: worker", "  agent tools: worker { terminal t }", "  transfer a -> tool", "}"),
    },
    {
      name: "an unreachable dead end is left to unreachable-agent",
      code: lines("graph g {", "  entry a", "  agent a: peer { terminal t }", "  agent b: peer", "}"),
    },
  ],
  invalid: [
    {
      name: "a trap cycle, reported once with the cycle as witness",
      code: lines(
        "graph g {",
        "  entry concierge",
        "  agent «concierge: peer",
        "  agent planner: peer",
        "  transfer concierge -> planner",
        "  transfer planner -> concierge",
        "}",
      ),
      errors: [{ mentions: ["concierge -> planner -> concierge", "'planner'"] }],
    },
    {
      name: "a dead end, with the path to it and the agents that lead only there",
      code: lines(
        "graph g {",
        "  entry a",
        "  agent a: peer { terminal t }",
        "  agent b: peer",
        "  agent «c: peer",
        "  transfer a -> b",
        "  transfer b -> c",
        "}",
      ),
      errors: [{ mentions: ["a -> b -> c", "'b' leads only here"] }],
    },
    {
      name: "two traps, each reported",
      code: lines(
        "graph g {",
        "  entry a",
        "  agent a: peer { terminal t }",
        "  agent «x: peer",
        "  agent «y: peer",
        "  agent z: peer",
        "  transfer a -> x",
        "  transfer a -> y",
        "  transfer y -> z",
        "  transfer z -> y",
        "}",
      ),
      errors: [{ mentions: ["'x'"] }, { mentions: ["y -> z -> y"] }],
    },
    {
      name: "the only way out has max_rounds 0",
      code: lines(
        "graph g {",
        "  entry a",
        "  agent «a: peer",
        "  agent b: peer { terminal t }",
        "  transfer a -> b { max_rounds 0 }",
        "}",
      ),
      errors: [{ mentions: ["'a'"] }],
    },
  ],
});
