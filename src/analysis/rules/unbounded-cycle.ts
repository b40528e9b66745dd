import { describeEdge, edgeHeaderRange, formatWalk } from "../describe.js";
import { defineRule } from "../rule.js";

/**
 * `unbounded-cycle` (warning): a strongly connected component of the edges without `max_rounds`
 * that an entry reaches and that can still reach a terminal: a task may circle it any number of
 * times. Reported once per component, on the first edge of a witness cycle, with the other edges
 * of the cycle as related information.
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
      const [head, ...rest] = cycle.map((e) => edges[e]).filter((d) => d !== undefined);
      if (head === undefined) return;
      report({
        range: edgeHeaderRange(head),
        message: `unbounded cycle ${formatWalk(model.graph.unboundedCycles[i] ?? [])}: no edge on it has max_rounds, so a task may circle it forever; add \`max_rounds N\` to one of its edges (e.g. \`${describeEdge(head)} { max_rounds 2 }\`).`,
        related: rest.map((d) => ({ message: `${describeEdge(d)} is on the same cycle`, range: edgeHeaderRange(d) })),
      });
    });
  },
});
