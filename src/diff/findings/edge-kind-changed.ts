import { edgePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `edge-kind-changed` (safe): the edge between two agents is of another kind. */
export const edgeKindChanged = graphFinding(
  {
    id: "edge-kind-changed",
    class: "safe",
    description: "An edge between the same two agents changed kind (delegate, return, transfer).",
    effect: "Envelopes do not carry the kind; what changes with it is the required-field set, reported by required-field-added and required-field-removed.",
  },
  ({ pair, report }) => {
    for (const { old, new: edge } of pair.keptEdges) {
      if (old.kind === edge.kind) continue;
      report({
        at: edgePlace(pair.new, edge),
        was: edgePlace(pair.old, old),
        owner: edge.to,
        message:
          `${edge.from} -> ${edge.to} is now a ${edge.kind}, not a ${old.kind}: envelopes do not carry the kind, ` +
          `and any change to the required fields that comes with it is reported on its own`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
