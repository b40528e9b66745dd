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
    effect:
      "A task keeps the deadline and policy its fan-out was first recorded with, from the graph of the service that recorded it (with a store the whole graph shares, the branch agent that accepted the fan-out's first delegation; with one store per receiver, the join agent): tasks in flight follow the old one to the end, and new tasks the new one once that service runs the new graph. No deploy order refuses more than the new policy itself, but a shorter deadline refuses those tasks' later arrivals (join-expired).",
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
          `a task keeps the policy its fan-out was first recorded with, so tasks in flight follow the old one, and new tasks the version of the service that records it (with a shared store, the branch agent that accepts the first delegation; with one store per receiver, ${change.agent.id})`,
        subject: { in: "new", agent: change.agent.id },
      });
    }
  },
);
