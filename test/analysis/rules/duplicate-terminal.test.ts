import { lines, ruleTable } from "./rule-table.js";

ruleTable("duplicate-terminal", {
  valid: [
    {
      name: "the same terminal id on two agents",
      code: lines("graph g {", "  entry a", "  agent a: peer { terminal done }", "  agent b: peer { terminal done }", "  transfer a -> b", "}"),
    },
  ],
  invalid: [
    {
      name: "one agent, one id twice",
      code: lines("graph g {", "  entry a", "  agent a: peer {", "    terminal done complete", "    terminal «done failed", "  }", "}"),
      errors: [{ mentions: ["'a'", "'done'"] }],
    },
  ],
});
