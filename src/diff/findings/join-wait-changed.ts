import { describeJoin, joinChanges, joinPlace } from "../fan-out-changes.js";
import { graphFinding } from "../rule.js";

/** `join-wait-changed` (breaking): what a join waits for changed, or a join was added or removed. */
export const joinWaitChanged = graphFinding(
  {
    id: "join-wait-changed",
    class: "breaking",
    description: "A join was added or removed, or waits for other inputs or another count (all, any, k of n).",
    effect:
      "Tasks in flight were fanned out under the old condition: the new join may wait for an arrival that never comes, or fire before results it needs, whichever side deploys first.",
  },
  ({ pair, report }) => {
    for (const change of joinChanges(pair)) {
      if (!change.waitChanged) continue;
      const { agent, old } = change;
      report({
        at: joinPlace(pair.new, agent),
        was: joinPlace(pair.old, old),
        owner: agent.id,
        message:
          `agent ${agent.id} now has ${describeJoin(agent.join)}, not ${describeJoin(old.join)}: tasks in flight were fanned out under the old condition, ` +
          `so the join may wait for an arrival that never comes or go on without one it needed; drain the tasks in flight at ${agent.id} before deploying`,
        subject: { in: "new", agent: agent.id },
      });
    }
  },
);
