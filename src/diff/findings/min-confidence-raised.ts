import { floorChanges } from "../edge-settings.js";
import { settingPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `min-confidence-raised` (sender-first): an edge's confidence floor was raised or added. */
export const minConfidenceRaised = graphFinding(
  {
    id: "min-confidence-raised",
    class: "sender-first",
    description: "An edge's min_confidence was raised (or set where there was none).",
    effect: "The receiver refuses decisions between the old and the new floor: deploy the sender first, so it routes them elsewhere.",
  },
  ({ pair, report }) => {
    for (const change of floorChanges(pair)) {
      if (change.new <= change.old) continue;
      const { edge } = change;
      report({
        at: settingPlace(pair.new, edge, "MinConfidence"),
        owner: edge.to,
        message:
          `min_confidence of ${edge.from} -> ${edge.to} rose from ${change.old} to ${change.new}: ${edge.to} refuses decisions below ${change.new}, ` +
          `so deploy ${edge.from} first, so that it no longer sends them`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
