import type { EdgeDecl } from "../../parser/ast.js";
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
    const { counts, edges } = model.bound.items;
    // An index loop: see docs/performance.md, "Loops over a large graph".
    for (let k = 0; k < counts.MaxRounds.length; k++) {
      const { edge, item } = counts.MaxRounds[k] as (typeof counts.MaxRounds)[number];
      if (item.value.value !== 0) continue;
      report({
        range: item.value.range,
        message: `max_rounds 0 on ${describeEdge(edges[edge] as EdgeDecl)} means no task may ever take it: remove the edge, or allow at least 1 round.`,
      });
    }
  },
});
