import type { FanOutDecl } from "../../parser/ast.js";
import { describeEdge } from "../describe.js";
import { fanOutsOf, hasFanOut } from "../fan-outs.js";
import type { CheckedEdge } from "../model.js";
import { defineRule } from "../rule.js";

/** The edge's first `fan_out` line. */
export function fanOutLine(edge: CheckedEdge): FanOutDecl | undefined {
  return edge.decl.items.find((item): item is FanOutDecl => item.kind === "FanOut" && item.hasError !== true);
}

/**
 * `fan-out-invalid` (error): `fan_out` on an edge that is not a delegation (only a supervisor
 * hands one task to several agents at once), or a fan-out with a single branch.
 */
export const fanOutInvalidRule = defineRule({
  meta: {
    id: "fan-out-invalid",
    severity: "error",
    description: "A fan_out line on an edge that is not a delegate edge, or a fan-out with only one branch.",
  },
  check({ model, report }) {
    const { graph } = model;
    if (!hasFanOut(graph)) return;
    // An index loop: see docs/performance.md, "Loops over a large graph".
    for (let e = 0; e < graph.edges.length; e++) {
      const edge = graph.edges[e] as CheckedEdge;
      if (edge.fanOut === undefined || edge.kind === "delegate") continue;
      const line = fanOutLine(edge);
      if (line === undefined) continue;
      report({
        range: line.range,
        message: `fan_out ${edge.fanOut} on ${describeEdge(edge.decl)}: only delegations can be branches of a fan-out; move it to a delegate edge of '${edge.from}' or remove it`,
      });
    }
    for (const fanOut of fanOutsOf(graph)) {
      if (fanOut.edges.length !== 1) continue;
      const edge = fanOut.edges[0] as CheckedEdge;
      const line = fanOutLine(edge);
      if (line === undefined) continue;
      report({
        range: line.range,
        message: `fan-out '${fanOut.name}' of '${fanOut.from}' has one branch (${describeEdge(edge.decl)}): a fan-out hands one task to several agents at once; give another delegation of '${fanOut.from}' \`fan_out ${fanOut.name}\`, or remove the line`,
      });
    }
  },
});
