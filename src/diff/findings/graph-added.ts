import { graphPlace } from "../places.js";
import { fileFinding } from "../rule.js";

/** `graph-added` (safe): the new file has a graph the old one lacked. */
export const graphAdded = fileFinding(
  {
    id: "graph-added",
    class: "safe",
    description: "A graph was added to the file.",
    effect: "Nothing runs in the graph yet, so no handoff is refused.",
  },
  ({ addedGraphs, report }) => {
    for (const side of addedGraphs) {
      report({
        graph: side.graph.name,
        at: graphPlace(side),
        message: `graph ${side.graph.name} is new: no task runs in it yet, so nothing is refused`,
        subject: { in: "new" },
      });
    }
  },
);
