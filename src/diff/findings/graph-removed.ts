import { graphPlace } from "../places.js";
import { fileFinding } from "../rule.js";

/** `graph-removed` (breaking): a graph of the old file has no graph of that name in the new one. */
export const graphRemoved = fileFinding(
  {
    id: "graph-removed",
    class: "breaking",
    description: "A graph was removed from the file.",
    effect: "Every task in flight in the graph stops at its next handoff: no validator is built for it any more.",
  },
  ({ removedGraphs, new: next, report }) => {
    for (const side of removedGraphs) {
      const name = side.graph.name;
      report({
        graph: name,
        at: { file: next.file, range: next.graphs[0]?.decl.name.range ?? { start: 0, end: 0 } },
        was: graphPlace(side),
        message: `graph ${name} was removed: its agents build no validator for it any more, so every task in flight in it is refused at its next handoff`,
        subject: { in: "old" },
      });
    }
  },
);
