import { formatEdges, formatWalk } from "../describe.js";
import { defineRule } from "../rule.js";

/**
 * `hop-limit-unbounded` (error): `hop_limit auto` (or no `hop_limit`) while an unbounded cycle
 * lies between an entry and a terminal, so no finite limit can be computed, or while the computed
 * limit is too large to be an exact JSON integer.
 */
export const hopLimitUnboundedRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "hop-limit-unbounded",
    severity: "error",
    description: "hop_limit is auto but a cycle without max_rounds makes the longest walk unbounded.",
  },
  check({ model, report }) {
    const { bound } = model;
    if (bound.hopLimit && bound.hopLimit.value.kind === "IntegerLiteral") return;
    const where = bound.hopLimit ? "hop_limit auto" : `the hop limit of graph '${bound.name}' (auto, as no hop_limit is declared)`;
    const range = bound.hopLimit ? bound.hopLimit.value.range : bound.decl.name.range;
    const { longestWalk } = model.graph.hopLimit;
    if (longestWalk !== undefined && !Number.isSafeInteger(longestWalk + 1)) {
      // JSON numbers above 2^53 - 1 are not exact integers, so no producer could write the limit.
      report({
        range,
        message: `${where} cannot be used: the longest walk max_rounds allows, ${longestWalk} handoffs, is beyond the largest exact JSON integer (${Number.MAX_SAFE_INTEGER}). Lower the max_rounds values, or declare an explicit \`hop_limit N\`.`,
      });
      return;
    }
    const [first, ...others] = model.graph.unboundedCycles;
    const firstEdges = model.facts.unboundedCycles[0];
    if (first === undefined || firstEdges === undefined) return;
    const edges = firstEdges.map((e) => bound.edgeDecl[e]).filter((d) => d !== undefined);
    const more = others.length > 0 ? ` (and ${others.length} other unbounded cycle${others.length > 1 ? "s" : ""})` : "";
    report({
      range,
      message: `${where} cannot be computed: no edge of the cycle ${formatWalk(first)} (${formatEdges(edges)})${more} has max_rounds, so walks have no longest length. Add \`max_rounds N\` to one of those edges, or declare an explicit \`hop_limit N\`.`,
      path: first,
    });
  },
});
