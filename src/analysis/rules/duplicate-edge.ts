import type { EdgeDecl } from "../../parser/ast.js";
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
    const first = new Map<string, EdgeDecl>();
    for (const item of model.bound.decl.items) {
      if (item.kind !== "Edge") continue;
      const key = `${item.edgeKind.value} ${item.from.name} ${item.to.name}`;
      const earlier = first.get(key);
      if (earlier === undefined) {
        first.set(key, item);
        continue;
      }
      report({
        range: edgeHeaderRange(item),
        message: `edge ${describeEdge(item)} is declared twice: merge the two into one (put all its require and max_rounds lines in the first).`,
        related: [{ message: `first declaration of ${describeEdge(earlier)}`, range: edgeHeaderRange(earlier) }],
      });
    }
  },
});
