import { describeEdge } from "../describe.js";
import { defineRule } from "../rule.js";

/**
 * `max-rounds-zero` (error): `max_rounds 0` means a task may never take the edge, which is an
 * edge that should not be declared; analysis treats it as absent.
 */
export const maxRoundsZeroRule = defineRule({
  meta: {
    id: "max-rounds-zero",
    severity: "error",
    description: "An edge with max_rounds 0 can never be taken.",
  },
  check({ model, report }) {
    for (const item of model.bound.decl.items) {
      if (item.kind !== "Edge") continue;
      for (const edgeItem of item.items) {
        if (edgeItem.kind !== "MaxRounds" || edgeItem.value.value !== 0) continue;
        report({
          range: edgeItem.value.range,
          message: `max_rounds 0 on ${describeEdge(item)} means no task may ever take it: remove the edge, or allow at least 1 round.`,
        });
      }
    }
  },
});
