import { defineRule } from "../rule.js";

/** `missing-entry` (error): a graph without an `entry` line. */
export const missingEntryRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "missing-entry",
    severity: "error",
    description: "A graph declares no entry agent, so no task can start.",
  },
  check({ model, report }) {
    if (model.bound.hasEntryLine) return;
    const first = model.bound.agents[0];
    report({
      range: model.bound.decl.name.range,
      message: `graph '${model.bound.name}' has no entry agent: add \`entry ${first ? first.id : "<agent>"}\` naming the agent that receives new tasks.`,
    });
  },
});
