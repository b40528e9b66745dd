import { describeEdge, edgeHeaderRange, formatEdges, formatWalk, MAX_RELATED } from "../describe.js";
import { defineRule } from "../rule.js";

/**
 * `unbounded-cycle` (warning): a strongly connected component of the edges without `max_rounds`
 * that an entry reaches and that can still reach a terminal: a task may circle it any number of
 * times. Reported once per component, on the first edge of a witness cycle, with the other edges
 * of the cycle as related information. The message names the cycle's edges by kind, since a
 * bounded edge may join the same two agents.
 */
export const unboundedCycleRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "unbounded-cycle",
    severity: "warning",
    description: "A cycle that can be left, but on which no edge has max_rounds, so tasks may loop without bound.",
  },
  check({ model, report }) {
    const edges = model.bound.edgeDecl;
    model.facts.unboundedCycles.forEach((cycle, i) => {
      const decls = cycle.map((e) => edges[e]).filter((d) => d !== undefined);
      const [head, ...rest] = decls;
      if (head === undefined) return;
      const path = model.graph.unboundedCycles[i] ?? [];
      report({
        range: edgeHeaderRange(head),
        message: `unbounded cycle ${formatWalk(path)} (${formatEdges(decls)}): none of ${decls.length === 1 ? "its edge" : `its ${decls.length} edges`} has max_rounds, so a task may circle it forever; add \`max_rounds N\` to one of them (e.g. \`${describeEdge(head)} { max_rounds 2 }\`).`,
        related: rest.slice(0, MAX_RELATED).map((d) => ({ message: `${describeEdge(d)} is on the same cycle`, range: edgeHeaderRange(d) })),
        path,
      });
    });
  },
});
