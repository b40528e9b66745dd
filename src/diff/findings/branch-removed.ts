import { branchChanges, fanOutPlace } from "../fan-out-changes.js";
import { edgePlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `branch-removed` (breaking): a kept delegation is no longer a branch of a fan-out. */
export const branchRemoved = graphFinding(
  {
    id: "branch-removed",
    class: "breaking",
    description: "A delegation stopped being a branch of a fan-out (or moved to another fan-out).",
    effect:
      "Tasks in flight with the branch open carry its branch id, which the new graph does not know: their next hop on the branch, and the join waiting for it, are refused whichever side deploys first.",
  },
  ({ pair, report }) => {
    for (const change of branchChanges(pair)) {
      if (change.was === undefined) continue;
      const { edge } = change;
      report({
        at: change.now === undefined ? edgePlace(pair.new, edge) : fanOutPlace(pair.new, edge),
        was: fanOutPlace(pair.old, change.old),
        owner: edge.to,
        message:
          `delegate ${edge.from} -> ${edge.to} is no longer a branch of fan-out '${change.was}'${change.now === undefined ? "" : ` (now '${change.now}')`}: ` +
          `tasks in flight with that branch open are refused at its next hop by the new graph; drain them before deploying`,
        subject: { in: "new", edge: { kind: edge.kind, from: edge.from, to: edge.to } },
      });
    }
  },
);
