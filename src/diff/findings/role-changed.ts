import { agentPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `role-changed` (breaking): an agent plays another role. */
export const roleChanged = graphFinding(
  {
    id: "role-changed",
    class: "breaking",
    description: "An agent's role (supervisor, worker, peer) changed.",
    effect: "Envelopes name both agents' roles, so every handoff to or from the agent that names the old role is refused, in either deploy order.",
  },
  ({ pair, report }) => {
    for (const { old, new: agent } of pair.keptAgents) {
      if (old.role === agent.role) continue;
      report({
        at: { file: pair.new.file, range: agent.decl.role.range },
        was: agentPlace(pair.old, old),
        owner: agent.id,
        message:
          `agent ${agent.id} is now a ${agent.role}, not a ${old.role}: envelopes name each agent's role, so handoffs to or ` +
          `from ${agent.id} that still say ${old.role} are refused (role-mismatch) by the new graph, and those that say ${agent.role} by agents on the old one`,
        subject: { in: "new", agent: agent.id },
      });
    }
  },
);
