import { branchChanges, fanOutPlace } from "../fan-out-changes.js";
import { edgePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `branch-added` (receiver-first): a kept delegation became a branch of a fan-out. */
export const branchAdded = graphFinding(
  {
    id: "branch-added",
    class: "receiver-first",
    description: "A delegation became a branch of a fan-out (or moved to another fan-out).",
    effect:
      "Agents on the old graph take the parallel branches for a second owner of the hop and refuse them (owner-conflict): deploy the branch targets and the join before the supervisor fans out.",
  },
  ({ pair, report }) => {
    for (const change of branchChanges(pair)) {
      if (change.now === undefined) continue;
      const { edge } = change;
      report({
        at: fanOutPlace(pair.new, edge),
        was: change.was === undefined ? edgePlace(pair.old, change.old) : fanOutPlace(pair.old, change.old),
        owner: edge.to,
        message:
          `delegate ${edge.from} -> ${edge.to} is now a branch of fan-out '${change.now}'${change.was === undefined ? "" : ` (was '${change.was}')`}: ` +
          `agents on the old graph refuse a second owner of the hop, so deploy ${edge.to} and the join before ${edge.from} fans out`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
