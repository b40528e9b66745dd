import type { EdgeDecl, FieldPath, Identifier } from "../../parser/ast.js";
import { describeEdge } from "../describe.js";
import { defineRule } from "../rule.js";

/**
 * `listed-twice` (warning): a name written twice in one list, where the second says nothing:
 * a field path in an edge's `require` lines, a contract's or `loop_signature`; a decision id in
 * a `min_confidence ... for` list; an agent in the graph's `entry` lines (one list, however many
 * lines it takes). Harmless to the validators, but a sign of a copy-paste slip
 * (a path meant to be another). A join's inputs are `join-invalid`'s.
 */
export const listedTwiceRule = defineRule({
  meta: {
    id: "listed-twice",
    severity: "warning",
    description: "A field path, decision id or entry agent written twice in one list.",
  },
  check({ model, report }) {
    const once = <T extends FieldPath | Identifier>(items: Iterable<T>, textOf: (item: T) => string, where: () => string, what: string): void => {
      const first = new Map<string, T>();
      for (const item of items) {
        const text = textOf(item);
        const earlier = first.get(text);
        if (earlier === undefined) {
          first.set(text, item);
          continue;
        }
        report({
          range: item.range,
          message: `${what} '${text}' is listed twice in ${where()}: list it once`,
          related: [{ message: `first '${text}'`, range: earlier.range }],
        });
      }
    };
    const path = (p: FieldPath): string => p.text;
    const { settings, edges, requirePaths, floors } = model.bound.items;
    const entries: Identifier[] = [];
    for (const item of settings) {
      if (item.kind === "LoopSignature") once(item.paths, path, () => "loop_signature", "field");
      else if (item.kind === "Contract") once(item.requires.flatMap((req) => req.paths), path, () => `contract ${item.edgeKind.value}`, "field");
      else if (item.kind === "Entry") for (const agent of item.agents) entries.push(agent);
    }
    // Unknown names too: `unknown-agent` says the name is unknown, this rule that it is repeated.
    once(entries, (id) => id.name, () => "entry", "agent");
    const byEdge = new Map<number, FieldPath[]>();
    for (const { edge, path: p } of requirePaths) {
      let list = byEdge.get(edge);
      if (list === undefined) byEdge.set(edge, (list = []));
      list.push(p);
    }
    for (const [edge, paths] of byEdge) once(paths, path, () => `the require of ${describeEdge(edges[edge] as EdgeDecl)}`, "field");
    // The floors binding listed (complete lines, in source order), not a walk over every edge's items.
    for (const { edge, item } of floors) {
      once(item.decisions, (id) => id.name, () => `the confidence floor of ${describeEdge(edges[edge] as EdgeDecl)}`, "decision");
    }
  },
});
