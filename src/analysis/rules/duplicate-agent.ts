import { defineRule } from "../rule.js";

/** `duplicate-agent` (error): an agent id declared twice in one graph; the first declaration counts. */
export const duplicateAgentRule = defineRule({
  meta: {
    id: "duplicate-agent",
    severity: "error",
    description: "An agent id is declared more than once in the same graph.",
  },
  check({ model, report }) {
    const { agents, agentIndex, decl } = model.bound;
    for (const item of decl.items) {
      if (item.kind !== "Agent") continue;
      const first = agents[agentIndex.get(item.name.name) as number];
      if (first === undefined || first.decl === item) continue;
      report({
        range: item.name.range,
        message: `agent '${item.name.name}' is declared twice in graph '${model.bound.name}': rename one or merge the two declarations (the first, a ${first.role}, is the one used).`,
        related: [{ message: `first declaration of '${item.name.name}'`, range: first.decl.name.range }],
      });
    }
  },
});
