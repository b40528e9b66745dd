import { envelopePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `envelope-version-changed` (safe): the graph targets another envelope minor. */
export const envelopeVersionChanged = graphFinding(
  {
    id: "envelope-version-changed",
    class: "safe",
    description: "The envelope version the graph targets changed within major 1.",
    effect: "Validators of every 1.x graph read the same closed 1.x schema and check only the major, so nothing is refused.",
  },
  ({ pair, report }) => {
    const before = pair.old.graph.envelope;
    const after = pair.new.graph.envelope;
    if (before.major === after.major && before.minor === after.minor) return;
    report({
      at: envelopePlace(pair.new),
      message: `the graph now targets envelope ${after.major}.${after.minor}, not ${before.major}.${before.minor}: validators read the same closed ${after.major}.x schema and check only the major, so nothing is refused`,
      subject: { in: "new" },
    });
  },
);
