import { describeEdge, edgeHeaderRange } from "../describe.js";
import { defineRule } from "../rule.js";

/** `duplicate-edge` (error): the same kind of edge between the same two agents declared twice. */
export const duplicateEdgeRule = defineRule({
  meta: {
    id: "duplicate-edge",
    severity: "error",
    description: "The same edge (kind, from, to) is declared more than once.",
  },
  check({ model, report }) {
    for (const { decl, first } of model.bound.dropped.edges) {
      report({
        range: edgeHeaderRange(decl),
        message: `edge ${describeEdge(decl)} is declared twice: merge the two into one (put all its require and max_rounds lines in the first).`,
        related: [{ message: `first declaration of ${describeEdge(first)}`, range: edgeHeaderRange(first) }],
      });
    }
  },
});
