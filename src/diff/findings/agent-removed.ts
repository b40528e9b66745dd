import { agentPlace, graphPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `agent-removed` (breaking): an agent of the old graph is gone. */
export const agentRemoved = graphFinding(
  {
    id: "agent-removed",
    class: "breaking",
    description: "An agent was removed from the graph.",
    effect: "Handoffs to the agent have no receiver, and tasks whose hop.path passed through it are refused at their next hop.",
  },
  ({ pair, report }) => {
    for (const agent of pair.removedAgents) {
      report({
        at: graphPlace(pair.new),
        was: agentPlace(pair.old, agent),
        message:
          `agent ${agent.id} (${agent.role}) was removed: handoffs to it have no receiver, and every agent refuses ` +
          `tasks in flight whose hop.path already passed through ${agent.id} (bad-hop-path)`,
        subject: { in: "old", agent: agent.id },
      });
    }
  },
);
