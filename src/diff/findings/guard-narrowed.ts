import { guardChanges } from "../edge-settings.js";
import { guardPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `guard-narrowed` (sender-first): a guarded edge takes fewer envelope states than before. */
export const guardNarrowed = graphFinding(
  {
    id: "guard-narrowed",
    class: "sender-first",
    description: "A guarded edge takes fewer envelope states than before (its guard was narrowed, or an earlier route now takes some).",
    effect: "The receiver refuses the states it no longer takes (guard-unmet): deploy the sender first, so it routes them elsewhere.",
  },
  ({ pair, report }) => {
    for (const change of guardChanges(pair)) {
      if (change.narrowed === undefined) continue;
      const { edge } = change;
      report({
        at: guardPlace(pair.new, edge),
        owner: edge.to,
        message:
          `${edge.kind} ${edge.from} -> ${edge.to} no longer takes ${change.narrowed}: ${edge.to} refuses such handoffs, ` +
          `so deploy ${edge.from} first, so that it routes them elsewhere`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
