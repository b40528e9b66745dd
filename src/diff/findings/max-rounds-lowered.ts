import { maxRoundsPlace } from "../places.js";
import { roundsChanges, showLimit } from "../rounds.js";
import { graphFinding } from "../rule.js";

/** `max-rounds-lowered` (breaking): a task may take an edge fewer times. */
export const maxRoundsLowered = graphFinding(
  {
    id: "max-rounds-lowered",
    class: "breaking",
    description: "An edge's max_rounds was lowered (or set where there was none).",
    effect: "Every agent counts rounds in hop.path, so a task in flight that already took the edge more often than the new limit is refused at its next hop.",
  },
  ({ pair, report }) => {
    for (const change of roundsChanges(pair)) {
      if (change.new > change.old) continue;
      const { edge } = change;
      report({
        at: maxRoundsPlace(pair.new, edge),
        owner: edge.to,
        message:
          `max_rounds of ${edge.from} -> ${edge.to} fell from ${showLimit(change.old)} to ${change.new}: every agent counts rounds in hop.path, ` +
          `so a task in flight that already took ${edge.from} -> ${edge.to} ${change.new === 1 ? "once" : `${change.new} times`} is refused the next time it does`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
