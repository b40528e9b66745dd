import { lines, ruleTable } from "./rule-table.js";

ruleTable("listed-twice", {
  valid: [
    {
      name: "each path and decision once, the same path on two edges",
      code: lines(
        "graph g {",
        "  envelope 1.4",
        "  entry a",
        "  loop_signature goal.statement, decisions[].statement",
        "  contract delegate { require budget.limit }",
        "  agent a: supervisor { terminal t }",
        "  agent b: worker",
        "  delegate a -> b { require goal.out_of_scope require constraints min_confidence 0.8 for price, vendor }",
        "  return b -> a { max_rounds 1 require goal.out_of_scope }",
        "}",
      ),
    },
    {
      name: "two entry agents, each once, on two lines",
      code: lines(
        "graph g {",
        "  entry a",
        "  entry b",
        "  agent a: supervisor { terminal t }",
        "  agent b: supervisor { terminal t }",
        "}",
      ),
    },
  ],
  invalid: [
    {
      name: "a path twice in one require, across two require lines, in a contract and in loop_signature",
      code: lines(
        "graph g {",
        "  entry a",
        "  loop_signature goal.statement, «goal.statement»",
        "  contract delegate { require budget.limit require «budget.limit» }",
        "  agent a: supervisor { terminal t }",
        "  agent b: worker",
        "  delegate a -> b { require goal.out_of_scope, «goal.out_of_scope» require constraints, «goal.out_of_scope» }",
        "  return b -> a { max_rounds 1 }",
        "}",
      ),
      errors: [
        { severity: "warning", message: "field 'goal.statement' is listed twice in loop_signature: list it once" },
        { severity: "warning", message: "field 'budget.limit' is listed twice in contract delegate: list it once" },
        { severity: "warning", message: "field 'goal.out_of_scope' is listed twice in the require of delegate a -> b: list it once" },
        { severity: "warning", message: "field 'goal.out_of_scope' is listed twice in the require of delegate a -> b: list it once" },
      ],
    },
    {
      name: "a decision twice in a confidence floor",
      code: lines(
        "graph g {",
        "  envelope 1.4",
        "  entry a",
        "  agent a: supervisor { terminal t }",
        "  agent b: worker",
        "  delegate a -> b { min_confidence 0.9 for price, «price» }",
        "  return b -> a { max_rounds 1 }",
        "}",
      ),
      errors: [{ severity: "warning", message: "decision 'price' is listed twice in the confidence floor of delegate a -> b: list it once" }],
    },
    {
      name: "an entry agent twice in one entry line and again on a second line",
      code: lines(
        "graph g {",
        "  entry a, «a»",
        "  entry b, «a»",
        "  agent a: supervisor { terminal t }",
        "  agent b: supervisor { terminal t }",
        "}",
      ),
      errors: [
        { severity: "warning", message: "agent 'a' is listed twice in entry: list it once" },
        { severity: "warning", message: "agent 'a' is listed twice in entry: list it once" },
      ],
    },
  ],
});
