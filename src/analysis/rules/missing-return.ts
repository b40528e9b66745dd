import { describeEdge, edgeHeaderRange } from "../describe.js";
import { defineRule } from "../rule.js";

/**
 * `missing-return` (warning): a delegate whose target has neither a return edge to that
 * supervisor nor a terminal of its own, so the delegated work cannot come back or end.
 */
export const missingReturnRule = defineRule({
  meta: {
    id: "missing-return",
    severity: "warning",
    description: "A delegated agent can neither return to its supervisor nor end the task.",
  },
  check({ model, report }) {
    const { agents, edges } = model.bound;
    const returns = new Set<string>();
    for (const edge of edges) if (edge.kind === "return") returns.add(`${edge.from} ${edge.to}`);
    for (const edge of edges) {
      if (edge.kind !== "delegate" || edge.from === edge.to) continue;
      const target = agents[edge.toIndex];
      if (target === undefined || target.terminals.length > 0 || returns.has(`${edge.to} ${edge.from}`)) continue;
      report({
        range: edgeHeaderRange(edge.decl),
        message: `${describeEdge(edge.decl)}: '${edge.to}' can neither return to '${edge.from}' nor end the task; add \`return ${edge.to} -> ${edge.from}\` or give '${edge.to}' a terminal.`,
      });
    }
  },
});
