import type { EdgeDecl } from "../../parser/ast.js";
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
    const { edges, edgeFromName, edgeToName } = model.bound.items;
    for (let i = 0; i < edges.length; i++) {
      if (edgeFromName[i] !== edgeToName[i]) continue;
      const item = edges[i] as EdgeDecl;
      report({
        range: edgeHeaderRange(item),
        message: `${describeEdge(item)} hands the task from '${item.from.name}' to itself: an agent that keeps working needs no handoff; remove the edge or point it at another agent.`,
      });
    }
  },
});
