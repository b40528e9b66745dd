import { envelopeFieldsAddedBetween } from "../envelope-fields.js";
import { envelopePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `envelope-version-raised` (receiver first): a newer envelope minor with new optional fields. */
export const envelopeVersionRaised = graphFinding(
  {
    id: "envelope-version-raised",
    class: "receiver-first",
    description: "The graph targets a newer envelope minor, which adds optional fields.",
    effect: "Receivers on the old graph validate against a closed schema without the new fields and refuse envelopes that carry them, so deploy every receiver before a producer sends them.",
  },
  ({ pair, report }) => {
    const before = pair.old.graph.envelope;
    const after = pair.new.graph.envelope;
    const added = envelopeFieldsAddedBetween(before, after);
    if (added.length === 0) return;
    report({
      at: envelopePlace(pair.new),
      message: `the graph now targets envelope ${after.major}.${after.minor}, not ${before.major}.${before.minor}: agents on the old graph refuse envelopes that carry ${added.join(", ")}, so deploy every receiver before a producer sends them`,
      subject: { in: "new" },
    });
  },
);
