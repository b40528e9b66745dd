import { formatWalk } from "../describe.js";
import { defineRule } from "../rule.js";

/**
 * `hop-limit-unbounded` (error): `hop_limit auto` (or no `hop_limit`) while an unbounded cycle
 * lies between an entry and a terminal, so no finite limit can be computed.
 */
export const hopLimitUnboundedRule = defineRule({
  meta: {
    id: "hop-limit-unbounded",
    severity: "error",
    description: "hop_limit is auto but a cycle without max_rounds makes the longest walk unbounded.",
  },
  check({ model, report }) {
    const { bound } = model;
    if (bound.hopLimit && bound.hopLimit.value.kind === "IntegerLiteral") return;
    const [first, ...others] = model.graph.unboundedCycles;
    if (first === undefined) return;
    const more = others.length > 0 ? ` (and ${others.length} other unbounded cycle${others.length > 1 ? "s" : ""})` : "";
    const where = bound.hopLimit ? "hop_limit auto" : `the hop limit of graph '${bound.name}' (auto, as no hop_limit is declared)`;
    report({
      range: bound.hopLimit ? bound.hopLimit.value.range : bound.decl.name.range,
      message: `${where} cannot be computed: the cycle ${formatWalk(first)}${more} has no max_rounds, so walks have no longest length. Add \`max_rounds N\` to an edge of the cycle, or declare an explicit \`hop_limit N\`.`,
    });
  },
});
