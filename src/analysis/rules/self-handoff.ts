import { describeEdge, edgeHeaderRange } from "../describe.js";
import { defineRule } from "../rule.js";

/** `self-handoff` (error): an edge from an agent to itself. */
export const selfHandoffRule = defineRule({
  meta: {
    id: "self-handoff",
    severity: "error",
    description: "An edge hands a task from an agent to itself.",
  },
  check({ model, report }) {
    for (const item of model.bound.decl.items) {
      if (item.kind !== "Edge" || item.from.name !== item.to.name) continue;
      report({
        range: edgeHeaderRange(item),
        message: `${describeEdge(item)} hands the task from '${item.from.name}' to itself: an agent that keeps working needs no handoff; remove the edge or point it at another agent.`,
      });
    }
  },
});
