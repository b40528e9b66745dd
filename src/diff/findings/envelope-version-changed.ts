import { envelopeFieldsAddedBetween } from "../envelope-fields.js";
import { envelopePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `envelope-version-changed` (safe): another envelope minor with the same fields. */
export const envelopeVersionChanged = graphFinding(
  {
    id: "envelope-version-changed",
    class: "safe",
    description: "The envelope version the graph targets changed to one with the same fields.",
    effect: "Both versions' schemas hold the same fields and validators check only the major, so nothing is refused.",
  },
  ({ pair, report }) => {
    const before = pair.old.graph.envelope;
    const after = pair.new.graph.envelope;
    if (before.major === after.major && before.minor === after.minor) return;
    if (envelopeFieldsAddedBetween(before, after).length > 0 || envelopeFieldsAddedBetween(after, before).length > 0) return;
    report({
      at: envelopePlace(pair.new),
      message: `the graph now targets envelope ${after.major}.${after.minor}, not ${before.major}.${before.minor}: both hold the same fields, so nothing is refused`,
      subject: { in: "new" },
    });
  },
);
