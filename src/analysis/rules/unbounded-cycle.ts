import { describeEdge, edgeHeaderRange, formatWalk } from "../describe.js";
import { defineRule } from "../rule.js";
import type { RuleModel } from "../rule.js";

/** The agents of an unbounded-cycle witness (edge ids), first agent repeated at the end. */
export function cycleAgents(model: RuleModel, cycle: readonly number[]): string[] {
  const edges = model.bound.edges;
  const first = edges[cycle[0] as number];
  return first ? [first.from, ...cycle.map((e) => (edges[e] as { to: string }).to)] : [];
}

/**
 * `unbounded-cycle` (warning): a strongly connected component of the edges without `max_rounds`
 * that an entry reaches and that can still reach a terminal: a task may circle it any number of
 * times. Reported once per component, on the first edge of a witness cycle, with the other edges
 * of the cycle as related information.
 */
export const unboundedCycleRule = defineRule({
  meta: {
    id: "unbounded-cycle",
    severity: "warning",
    description: "A cycle that can be left, but on which no edge has max_rounds, so tasks may loop without bound.",
  },
  check({ model, report }) {
    const edges = model.bound.edges;
    for (const cycle of model.facts.unboundedCycles) {
      const [head, ...rest] = cycle.map((e) => edges[e]?.decl).filter((d) => d !== undefined);
      if (head === undefined) continue;
      report({
        range: edgeHeaderRange(head),
        message: `unbounded cycle ${formatWalk(cycleAgents(model, cycle))}: no edge on it has max_rounds, so a task may circle it forever; add \`max_rounds N\` to one of its edges (e.g. \`${describeEdge(head)} { max_rounds 2 }\`).`,
        related: rest.map((d) => ({ message: `${describeEdge(d)} is on the same cycle`, range: edgeHeaderRange(d) })),
      });
    }
  },
});
