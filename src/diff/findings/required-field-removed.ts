import { edgePlace, requirePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `required-field-removed` (receiver-first): the receiver of an edge no longer requires a field. */
export const requiredFieldRemoved = graphFinding(
  {
    id: "required-field-removed",
    class: "receiver-first",
    description: "An edge's contract no longer requires a field.",
    effect: "A sender that stops sending the field is refused by the old receiver: deploy the receiver first. Not reported where the refusing side is an observe edge, which only warns.",
  },
  ({ pair, oldFields, newFields, report }) => {
    for (const { old, new: edge } of pair.keptEdges) {
      // An observe edge warns instead of refusing: the old receiver refuses nothing.
      if (old.observe) continue;
      const after = new Set(newFields(edge.require));
      for (const field of oldFields(old.require)) {
        if (after.has(field)) continue;
        report({
          at: edgePlace(pair.new, edge),
          was: requirePlace(pair.old, old, field),
          owner: edge.to,
          message:
            `${edge.to} no longer requires ${field} on ${edge.kind} ${edge.from} -> ${edge.to}: deploy ${edge.to} first; ` +
            `the old ${edge.to} still refuses handoffs from an updated ${edge.from} that leave the field out`,
          subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to }, field },
        });
      }
    }
  },
);
