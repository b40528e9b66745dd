import { loopSignaturePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `loop-signature-changed` (breaking): the fields that identify a loop changed. */
export const loopSignatureChanged = graphFinding(
  {
    id: "loop-signature-changed",
    class: "breaking",
    description: "The set of loop_signature fields changed.",
    effect: "Agents on the two versions hash different fields, so loop detection starts over for every task in flight; no deploy order avoids it.",
  },
  ({ pair, report }) => {
    // The signature hashes a canonical object keyed by path, so order and repeats do not count.
    const before = new Set(pair.old.graph.loopSignature);
    const after = new Set(pair.new.graph.loopSignature);
    const added = [...after].filter((p) => !before.has(p)).sort();
    const removed = [...before].filter((p) => !after.has(p)).sort();
    if (added.length === 0 && removed.length === 0) return;
    const parts = [
      ...(added.length > 0 ? [`now hashes ${added.join(", ")}`] : []),
      ...(removed.length > 0 ? [`no longer hashes ${removed.join(", ")}`] : []),
    ];
    report({
      at: loopSignaturePlace(pair.new),
      message:
        `loop_signature ${parts.join(" and ")}: agents on the two versions compute different signatures, so loop detection ` +
        `starts over for every task in flight and a loop already under way gets its rounds again`,
      subject: { in: "new" },
    });
  },
);
