import { agentPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `agent-added` (safe): the new graph declares an agent the old one lacked. */
export const agentAdded = graphFinding(
  {
    id: "agent-added",
    class: "safe",
    description: "An agent was added to the graph.",
    effect: "No handoff reaches the agent until an edge does (see edge-added), so nothing is refused.",
  },
  ({ pair, report }) => {
    for (const agent of pair.addedAgents) {
      report({
        at: agentPlace(pair.new, agent),
        message: `agent ${agent.id} (${agent.role}) is new: no handoff reaches it before an edge to it is deployed`,
        subject: { in: "new", agent: agent.id },
      });
    }
  },
);
