import { edgePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `edge-added` (receiver-first): a new edge. */
export const edgeAdded = graphFinding(
  {
    id: "edge-added",
    class: "receiver-first",
    description: "An edge was added.",
    effect:
      "Agents on the old graph refuse handoffs on the edge and, later in the task, hop.paths that took it: deploy the receiver and every agent after it before the sender uses the edge.",
  },
  ({ pair, report }) => {
    for (const edge of pair.addedEdges) {
      report({
        at: edgePlace(pair.new, edge),
        owner: edge.to,
        message:
          `${edge.kind} ${edge.from} -> ${edge.to} is new: agents on the old graph refuse it (unknown-edge, and bad-hop-path at later hops), ` +
          `so deploy ${edge.to} and the agents after it before ${edge.from} takes the edge`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
