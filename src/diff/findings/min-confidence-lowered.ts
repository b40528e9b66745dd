import { floorChanges } from "../edge-settings.js";
import { edgePlace, settingPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `min-confidence-lowered` (receiver-first): an edge's confidence floor was lowered or removed. */
export const minConfidenceLowered = graphFinding(
  {
    id: "min-confidence-lowered",
    class: "receiver-first",
    description: "An edge's min_confidence was lowered (or removed).",
    effect: "Receivers on the old graph still refuse decisions below the old floor: deploy the receiver before the sender hands them over.",
  },
  ({ pair, report }) => {
    for (const change of floorChanges(pair)) {
      if (change.new >= change.old) continue;
      const { edge } = change;
      report({
        at: edge.minConfidence === undefined ? edgePlace(pair.new, edge) : settingPlace(pair.new, edge, "MinConfidence"),
        owner: edge.to,
        message:
          `min_confidence of ${edge.from} -> ${edge.to} fell from ${change.old} to ${change.new}: ${edge.to} on the old graph refuses decisions below ${change.old}, ` +
          `so deploy ${edge.to} before ${edge.from} hands them over`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
