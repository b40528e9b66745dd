import type { EdgeDecl } from "../../parser/ast.js";
import { describeEdge } from "../describe.js";
import { defineRule } from "../rule.js";

/**
 * The most refusals of one hop worth sending back for repair. A producer that fails the same
 * contract three times does not know how to meet it; more round trips are a validation loop in
 * all but name, and only a person can end it.
 */
export const MAX_SENSIBLE_REPAIRS = 3;

/**
 * `repairs-excessive` (warning): `repairs N` with N above {@link MAX_SENSIBLE_REPAIRS} lets a
 * refused hop bounce between producer and receiver that often before it escalates.
 */
export const repairsExcessiveRule = defineRule({
  meta: {
    id: "repairs-excessive",
    severity: "warning",
    description: `An edge allows more than ${MAX_SENSIBLE_REPAIRS} repairs of one refused hop before it escalates.`,
  },
  check({ model, report }) {
    const { counts, edges } = model.bound.items;
    for (const { edge, item } of counts.Repairs) {
      const value = item.value.value;
      if (value <= MAX_SENSIBLE_REPAIRS) continue;
      report({
        range: item.value.range,
        message: `repairs ${value} on ${describeEdge(edges[edge] as EdgeDecl)} sends a refused hop back ${value} times before it escalates: a validation loop; allow at most ${MAX_SENSIBLE_REPAIRS} (the default is 1).`,
      });
    }
  },
});
