import { joinChanges, joinPlace, policyText } from "../fan-out-changes.js";
import { graphFinding } from "../rule.js";
import type { CheckedJoin } from "../../analysis/model.js";

const deadline = (join: CheckedJoin): string => (join.within === undefined ? "no deadline" : `${join.within} seconds`);

/** `join-policy-changed` (safe): a join's deadline or what it does when its wait fails changed. */
export const joinPolicyChanged = graphFinding(
  {
    id: "join-policy-changed",
    class: "safe",
    description: "A join's deadline (within) or failure policy (otherwise) changed.",
    effect: "No envelope is refused: only the join agent applies the policy, to the tasks it holds once it runs the new graph.",
  },
  ({ pair, report }) => {
    for (const change of joinChanges(pair)) {
      if (!change.policyChanged) continue;
      const a = change.old.join as CheckedJoin;
      const b = change.agent.join as CheckedJoin;
      report({
        at: joinPlace(pair.new, change.agent),
        was: joinPlace(pair.old, change.old),
        owner: change.agent.id,
        message:
          `the join of ${change.agent.id} now waits ${deadline(b)}, otherwise ${policyText(b)} (was ${deadline(a)}, otherwise ${policyText(a)}): ` +
          `nothing is refused; tasks ${change.agent.id} holds follow the new policy once it is deployed`,
        subject: { in: "new", agent: change.agent.id },
      });
    }
  },
);
