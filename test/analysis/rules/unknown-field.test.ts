import { lines, ruleTable } from "./rule-table.js";

const head = ["graph g {", "  entry a", "  agent a: peer", "  agent b: peer { terminal t }"];

ruleTable("unknown-field", {
  valid: [
    {
      name: "paths through $ref and array items",
      code: lines(
        ...head,
        "  loop_signature goal.statement, decisions[].statement, artefacts[].digest",
        "  contract transfer { require decisions[].rationale, budget.limit.tokens, from_agent.role }",
        "  transfer a -> b { require hop.path, open_questions[].blocking }",
        "}",
      ),
    },
  ],
  invalid: [
    {
      name: "a misspelt nested field, with the nearest path",
      code: lines(...head, "  transfer a -> b { require «decisions[].rational }", "}"),
      errors: [{ mentions: ["decisions[].rational", "did you mean 'decisions[].rationale'?"] }],
    },
    {
      name: "an array used without [] and a field below a $ref",
      code: lines(...head, "  loop_signature «decisions.statement, «budget.limit.dollars", "}"),
      errors: [{ mentions: ["decisions[].statement"] }, { mentions: ["'dollars'"] }],
    },
    {
      name: "in a contract, far from any field",
      code: lines(...head, "  contract delegate { require «zzzzzzzzzzzz }", "  transfer a -> b", "}"),
      errors: [{ mentions: ["valid fields here", "goal"] }],
    },
  ],
});
