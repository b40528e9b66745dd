import { gateChanges } from "../edge-settings.js";
import { graphFinding } from "../rule.js";

/** `gate-removed` (receiver-first): an agent or edge is no longer an approval gate. */
export const gateRemoved = graphFinding(
  {
    id: "gate-removed",
    class: "receiver-first",
    description: "An agent or edge is no longer an approval gate.",
    effect: "Receivers on the old graph still refuse handoffs through it without an approval record: deploy them before the gate stops recording approvals.",
  },
  ({ pair, report }) => {
    for (const change of gateChanges(pair)) {
      if (change.added) continue;
      report({
        at: change.at,
        ...(change.owner === undefined ? {} : { owner: change.owner }),
        message: `${change.what} is no longer an approval gate: agents on the old graph still refuse handoffs through it without an approval record, so deploy them before ${change.sender} stops recording approvals`,
        subject: change.subject,
        ...(change.was === undefined ? {} : { was: change.was }),
      });
    }
  },
);
