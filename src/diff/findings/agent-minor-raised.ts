import { quoteUntrusted } from "../../core/untrusted-text.js";
import { versionPlace } from "../places.js";
import { graphFinding } from "../rule.js";
import { versionStep } from "../version-step.js";

/** `agent-minor-raised` (receiver-first): an agent's version moved to a newer minor. */
export const agentMinorRaised = graphFinding(
  {
    id: "agent-minor-raised",
    class: "receiver-first",
    description: "An agent's declared version moved to a newer minor (for 0.x, a newer patch).",
    effect: "A producer that claims the new version is refused by the old agent: deploy the agent first.",
  },
  ({ pair, report }) => {
    for (const { old, new: agent } of pair.keptAgents) {
      if (versionStep(old, agent) !== "minor-raised") continue;
      report({
        at: versionPlace(pair.new, agent),
        was: versionPlace(pair.old, old),
        owner: agent.id,
        message:
          `agent ${agent.id} moved from version ${quoteUntrusted(old.version ?? "")} to ${quoteUntrusted(agent.version ?? "")}: the old ${agent.id} refuses envelopes ` +
          `that claim the newer version, so deploy ${agent.id} first, then the agents that hand off to it`,
        subject: { in: "new", agent: agent.id },
      });
    }
  },
);
