import { requirePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `required-field-added` (sender-first): the receiver of an edge now requires a field. */
export const requiredFieldAdded = graphFinding(
  {
    id: "required-field-added",
    class: "sender-first",
    description: "An edge's contract requires a field it did not require before.",
    effect: "Until the sender is redeployed, the receiver refuses its handoffs that lack the field: deploy the sender first. Not reported where the refusing side is an observe edge, which only warns.",
  },
  ({ pair, oldFields, newFields, report }) => {
    for (const { old, new: edge } of pair.keptEdges) {
      // An observe edge warns instead of refusing: the new receiver refuses nothing.
      if (edge.observe) continue;
      const before = new Set(oldFields(old.require));
      for (const field of newFields(edge.require)) {
        if (before.has(field)) continue;
        report({
          at: requirePlace(pair.new, edge, field),
          owner: edge.to,
          message:
            `${edge.to} now requires ${field} on ${edge.kind} ${edge.from} -> ${edge.to}: deploy ${edge.from} first so it sends the field; ` +
            `until it is redeployed, ${edge.to} refuses its handoffs that lack it`,
          subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to }, field },
        });
      }
    }
  },
);
