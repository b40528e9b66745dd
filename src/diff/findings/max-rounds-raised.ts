import { ordinal } from "../../runtime/ordinal.js";
import { maxRoundsPlace } from "../places.js";
import { roundsChanges, showLimit } from "../rounds.js";
import { graphFinding } from "../rule.js";

/** `max-rounds-raised` (receiver-first): a task may take an edge more times. */
export const maxRoundsRaised = graphFinding(
  {
    id: "max-rounds-raised",
    class: "receiver-first",
    description: "An edge's max_rounds was raised (or removed).",
    effect: "Agents on the old graph refuse the extra rounds: deploy every agent before a task relies on them.",
  },
  ({ pair, report }) => {
    for (const change of roundsChanges(pair)) {
      if (change.new < change.old) continue;
      const { edge } = change;
      report({
        at: maxRoundsPlace(pair.new, edge),
        owner: edge.to,
        message:
          `max_rounds of ${edge.from} -> ${edge.to} rose from ${change.old} to ${showLimit(change.new)}: agents on the old graph refuse a task ` +
          `that takes it a ${ordinal(change.old + 1)} time, so deploy every agent before a task relies on the extra rounds`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);

