import { defineRule } from "../rule.js";

/** `duplicate-agent` (error): an agent id declared twice in one graph; the first declaration counts. */
export const duplicateAgentRule = defineRule({
  meta: {
    id: "duplicate-agent",
    severity: "error",
    description: "An agent id is declared more than once in the same graph.",
  },
  check({ model, report }) {
    for (const { decl, first } of model.bound.dropped.agents) {
      report({
        range: decl.name.range,
        message: `agent '${decl.name.name}' is declared twice in graph '${model.bound.name}': rename one or merge the two declarations (the first, a ${first.role.value}, is the one used).`,
        related: [{ message: `first declaration of '${decl.name.name}'`, range: first.name.range }],
      });
    }
  },
});
