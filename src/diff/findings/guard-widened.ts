import { guardChanges } from "../edge-settings.js";
import { guardPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `guard-widened` (receiver-first): a guarded edge takes envelope states it did not take before. */
export const guardWidened = graphFinding(
  {
    id: "guard-widened",
    class: "receiver-first",
    description: "A guarded edge takes envelope states it did not take before.",
    effect: "Receivers on the old graph refuse the new states (guard-unmet): deploy the receiver before the sender routes them there.",
  },
  ({ pair, report }) => {
    for (const change of guardChanges(pair)) {
      if (change.widened === undefined) continue;
      const { edge } = change;
      report({
        at: guardPlace(pair.new, edge),
        owner: edge.to,
        message:
          `${edge.kind} ${edge.from} -> ${edge.to} now takes ${change.widened}: ${edge.to} on the old graph refuses such handoffs, ` +
          `so deploy ${edge.to} before ${edge.from} routes them there`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
