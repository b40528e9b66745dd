import { envelopeFieldsAddedBetween } from "../envelope-fields.js";
import { envelopePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `envelope-version-lowered` (sender first): an older envelope minor without some fields. */
export const envelopeVersionLowered = graphFinding(
  {
    id: "envelope-version-lowered",
    class: "sender-first",
    description: "The graph targets an older envelope minor, which lacks fields the newer one has.",
    effect: "Receivers on the new graph refuse envelopes that still carry the dropped fields, so deploy every producer first so it stops sending them.",
  },
  ({ pair, report }) => {
    const before = pair.old.graph.envelope;
    const after = pair.new.graph.envelope;
    const dropped = envelopeFieldsAddedBetween(after, before);
    if (dropped.length === 0) return;
    report({
      at: envelopePlace(pair.new),
      message: `the graph now targets envelope ${after.major}.${after.minor}, not ${before.major}.${before.minor}: agents on the new graph refuse envelopes that carry ${dropped.join(", ")}, so deploy every producer first so it stops sending them`,
      subject: { in: "new" },
    });
  },
);
