import { edgePlace, nearestAgentPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `edge-removed` (breaking): an edge between two agents that both remain is gone. */
export const edgeRemoved = graphFinding(
  {
    id: "edge-removed",
    class: "breaking",
    description: "An edge was removed while both its agents remain.",
    effect: "The receiver refuses the sender's handoffs, and every agent refuses tasks whose hop.path already took the edge.",
  },
  ({ pair, report }) => {
    for (const edge of pair.removedEdges) {
      const name = `${edge.kind} ${edge.from} -> ${edge.to}`;
      report({
        at: nearestAgentPlace(pair.new, edge.from),
        was: edgePlace(pair.old, edge),
        owner: edge.to,
        message:
          `${name} was removed: ${edge.to} refuses ${edge.from}'s handoffs on it (unknown-edge), and every agent refuses ` +
          `tasks in flight whose hop.path already took ${edge.from} -> ${edge.to} (bad-hop-path)`,
        subject: { in: "old", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
