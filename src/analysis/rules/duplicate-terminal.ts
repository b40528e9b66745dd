import { defineRule } from "../rule.js";

/** `duplicate-terminal` (error): one agent declares the same terminal id twice. */
export const duplicateTerminalRule = defineRule({
  meta: {
    id: "duplicate-terminal",
    severity: "error",
    description: "An agent declares the same terminal id more than once.",
  },
  check({ model, report }) {
    for (const { decl, first, agent } of model.bound.dropped.terminals) {
      report({
        range: decl.name.range,
        message: `agent '${agent.name.name}' declares terminal '${decl.name.name}' twice: rename one or remove it.`,
        related: [{ message: `first terminal '${decl.name.name}'`, range: first.name.range }],
      });
    }
  },
});
