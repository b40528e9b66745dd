import { repairsOf } from "../edge-settings.js";
import { settingPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `repairs-lowered` (safe): a refused hop on an edge escalates after fewer repairs. */
export const repairsLowered = graphFinding(
  {
    id: "repairs-lowered",
    class: "safe",
    description: "An edge's repairs was lowered.",
    effect: "Nothing more is refused: a refused hop escalates to a person sooner, in whichever order the agents deploy.",
  },
  ({ pair, report }) => {
    for (const { old, new: edge } of pair.keptEdges) {
      const before = repairsOf(old);
      const after = repairsOf(edge);
      if (after >= before) continue;
      report({
        at: settingPlace(pair.new, edge, "Repairs"),
        owner: edge.to,
        message: `repairs of ${edge.from} -> ${edge.to} fell from ${before} to ${after}: nothing more is refused, but a refused hop escalates sooner`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
