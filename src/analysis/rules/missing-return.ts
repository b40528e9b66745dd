import { describeEdge, edgeHeaderRange } from "../describe.js";
import { joinsOf } from "../fan-outs.js";
import { defineRule } from "../rule.js";

/**
 * `missing-return` (warning): a delegate whose target has neither a return edge to that
 * supervisor nor a terminal of its own, so the delegated work cannot come back or end. A branch
 * of a fan-out whose target hands off to a join that lists it comes back there (the join waits
 * for it, docs/language.md "Fan-out and joins"), as `branch-dangling` also counts it.
 */
export const missingReturnRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "missing-return",
    severity: "warning",
    description: "A delegated agent can neither return to its supervisor nor end the task.",
  },
  check({ model, report }) {
    const { agents, edgeFrom, edgeTo } = model.bound;
    const { paired } = model.facts;
    // Agents that hand off to a join listing them: "joiner -> set of join agents" is not needed,
    // only whether one exists.
    const joined = new Set<string>();
    const joins = joinsOf(model.graph);
    if (joins.length > 0) {
      const inputsOf = new Map(joins.map((j) => [j.agent.id, new Set(j.join.inputs)]));
      for (const edge of model.graph.edges) if (inputsOf.get(edge.to)?.has(edge.from) === true) joined.add(edge.from);
    }
    for (const edge of model.graph.edges) {
      if (edge.kind !== "delegate" || edgeFrom[edge.index] === edgeTo[edge.index] || paired[edge.index] === 1) continue;
      if (edge.fanOut !== undefined && joined.has(edge.to)) continue;
      const target = agents[edgeTo[edge.index] as number];
      if (target === undefined || target.terminals.length > 0) continue;
      report({
        range: edgeHeaderRange(edge.decl),
        message: `${describeEdge(edge.decl)}: '${edge.to}' neither returns to '${edge.from}' nor has a terminal of its own, so '${edge.from}' keeps accountability for work it never hears back about; add \`return ${edge.to} -> ${edge.from}\`, or give '${edge.to}' a terminal.`,
      });
    }
  },
});
