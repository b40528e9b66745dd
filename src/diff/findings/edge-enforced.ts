import { edgePlace, observePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `edge-enforced` (breaking): an `observe` edge now refuses what it only warned about. */
export const edgeEnforced = graphFinding(
  {
    id: "edge-enforced",
    class: "breaking",
    description: "An edge lost its observe mark: its validator now refuses instead of warning.",
    effect: "The receiver refuses every handoff it only warned about before, whichever side deploys first: replay recorded envelopes (seam validate) before deploying.",
  },
  ({ pair, report }) => {
    for (const { old, new: edge } of pair.keptEdges) {
      if (!old.observe || edge.observe) continue;
      report({
        at: edgePlace(pair.new, edge),
        was: observePlace(pair.old, old),
        owner: edge.to,
        message:
          `${edge.kind} ${edge.from} -> ${edge.to} is no longer observe: ${edge.to} now refuses the handoffs it only warned about; ` +
          `replay recorded envelopes with seam validate before deploying`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
