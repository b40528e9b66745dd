import { repairsOf } from "../edge-settings.js";
import { settingPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `repairs-raised` (receiver-first): a refused hop on an edge goes back for repair more often before it escalates. */
export const repairsRaised = graphFinding(
  {
    id: "repairs-raised",
    class: "receiver-first",
    description: "An edge's repairs was raised.",
    effect: "Receivers on the old graph escalate a refused hop after fewer repairs: deploy the receiver before producers rely on the extra repairs.",
  },
  ({ pair, report }) => {
    for (const { old, new: edge } of pair.keptEdges) {
      const before = repairsOf(old);
      const after = repairsOf(edge);
      if (after <= before) continue;
      report({
        at: settingPlace(pair.new, edge, "Repairs"),
        owner: edge.to,
        message:
          `repairs of ${edge.from} -> ${edge.to} rose from ${before} to ${after}: ${edge.to} on the old graph escalates a refused hop after ${before}, ` +
          `so deploy ${edge.to} before ${edge.from} relies on the extra repairs`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
