import { edgePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/**
 * `required-field-replaced` (breaking): one edge's contract both gained and lost a required field,
 * the shape of a renamed field. Each half is safe in one deploy order only, and the two orders
 * are opposite, so done in one release it breaks whichever side deploys first.
 */
export const requiredFieldReplaced = graphFinding(
  {
    id: "required-field-replaced",
    class: "breaking",
    description: "An edge's contract requires new fields and drops others in the same change (a renamed field).",
    effect:
      "The new receiver refuses old senders (they lack the new field) and the old receiver refuses new senders (they drop the old one): add the new field in one release, drop the old one in the next. Not reported where the refusing side is an observe edge, which only warns.",
  },
  ({ pair, oldFields, newFields, report }) => {
    for (const { old, new: edge } of pair.keptEdges) {
      // On an observe side nothing is refused, and each half is judged alone.
      if (old.observe || edge.observe) continue;
      const before = oldFields(old.require);
      const after = newFields(edge.require);
      const added = after.filter((f) => !before.includes(f));
      const dropped = before.filter((f) => !after.includes(f));
      if (added.length === 0 || dropped.length === 0) continue;
      report({
        at: edgePlace(pair.new, edge),
        was: edgePlace(pair.old, old),
        owner: edge.to,
        message:
          `${edge.kind} ${edge.from} -> ${edge.to} now requires ${added.join(", ")} instead of ${dropped.join(", ")}: whichever side deploys first, ` +
          `one refuses the other (an old ${edge.from} lacks ${added.length === 1 ? "the new field" : "the new fields"}, an old ${edge.to} still requires ` +
          `${dropped.length === 1 ? "the old one" : "the old ones"}); require the new in one release and drop the old in the next`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
