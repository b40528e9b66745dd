import type { CheckedEdge } from "../model.js";
import { describeEdge, edgeHeaderRange } from "../describe.js";
import { EDGE_KINDS } from "../bind.js";
import { defineRule } from "../rule.js";

/**
 * `missing-return` (warning): a delegate whose target has neither a return edge to that
 * supervisor nor a terminal of its own, so the delegated work cannot come back or end. A branch
 * of a fan-out is left to `branch-dangling`, which follows the branch's whole walk: it may come
 * back through a join that waits for it (docs/language.md "Fan-out and joins").
 */
export const missingReturnRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "missing-return",
    severity: "warning",
    description: "A delegated agent can neither return to its supervisor nor end the task.",
  },
  check({ model, report }) {
    const { agents, edgeFrom, edgeTo, edgeKind, edgeFanOut } = model.bound;
    const { paired } = model.facts;
    const delegate = EDGE_KINDS.indexOf("delegate");
    // An index loop over the columns, not the checked edges: see docs/performance.md, "Loops over
    // a large graph"; a checked edge is read only for a finding.
    for (let e = 0; e < edgeKind.length; e++) {
      if (edgeKind[e] !== delegate || edgeFrom[e] === edgeTo[e] || paired[e] === 1) continue;
      // A branch of a fan-out is `branch-dangling`'s to judge: it follows the branch's walk.
      if (edgeFanOut[e] !== undefined) continue;
      const target = agents[edgeTo[e] as number];
      if (target === undefined || target.terminals.length > 0) continue;
      const edge = model.graph.edges[e] as CheckedEdge;
      report({
        range: edgeHeaderRange(edge.decl),
        message: `${describeEdge(edge.decl)}: '${edge.to}' neither returns to '${edge.from}' nor has a terminal of its own, so '${edge.from}' keeps accountability for work it never hears back about; add \`return ${edge.to} -> ${edge.from}\`, or give '${edge.to}' a terminal.`,
      });
    }
  },
});
