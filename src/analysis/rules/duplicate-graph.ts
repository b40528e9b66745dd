import { defineRule } from "../rule.js";

/**
 * `duplicate-graph` (error): two graphs of one file share a name. Compiled files, `--name` and
 * the emitted schema ids are all keyed by the graph's name, so the second could never be picked.
 */
export const duplicateGraphRule = defineRule({
  meta: {
    id: "duplicate-graph",
    severity: "error",
    description: "Two graphs in the same file have the same name.",
  },
  check({ model, report }) {
    const { firstOfName, graph } = model;
    if (firstOfName === graph.decl) return;
    report({
      range: graph.decl.name.range,
      message: `graph '${graph.name}' is declared twice in this file: rename one (compile outputs and --name pick graphs by name).`,
      related: [{ message: `first graph named '${graph.name}'`, range: firstOfName.name.range }],
    });
  },
});
