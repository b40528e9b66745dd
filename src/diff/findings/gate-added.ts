import { gateChanges } from "../edge-settings.js";
import { graphFinding } from "../rule.js";

/** `gate-added` (sender-first): an agent or edge became an approval gate. */
export const gateAdded = graphFinding(
  {
    id: "gate-added",
    class: "sender-first",
    description: "An agent or edge became an approval gate.",
    effect: "Receivers refuse handoffs through the gate that carry no approval record: deploy the gate's own side first, so it records approvals.",
  },
  ({ pair, report }) => {
    for (const change of gateChanges(pair)) {
      if (!change.added) continue;
      report({
        at: change.at,
        ...(change.owner === undefined ? {} : { owner: change.owner }),
        message: `${change.what} is now an approval gate: handoffs through it must carry an approval record, so deploy ${change.sender} first, then the agents after it`,
        subject: change.subject,
      });
    }
  },
);
