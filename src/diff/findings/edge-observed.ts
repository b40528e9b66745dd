import { observePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `edge-observed` (safe): an edge is now `observe`. */
export const edgeObserved = graphFinding(
  {
    id: "edge-observed",
    class: "safe",
    description: "An edge was marked observe: its validator warns instead of refusing.",
    effect: "The receiver accepts what it used to refuse, with warnings; nothing new is refused.",
  },
  ({ pair, report }) => {
    for (const { old, new: edge } of pair.keptEdges) {
      if (old.observe || !edge.observe) continue;
      report({
        at: observePlace(pair.new, edge),
        owner: edge.to,
        message: `${edge.kind} ${edge.from} -> ${edge.to} is now observe: ${edge.to} warns instead of refusing, so nothing new is refused`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
