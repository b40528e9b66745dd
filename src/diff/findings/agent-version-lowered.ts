import { quoteUntrusted } from "../../core/untrusted-text.js";
import { versionPlace } from "../places.js";
import { graphFinding } from "../rule.js";
import { versionStep } from "../version-step.js";

/** `agent-version-lowered` (sender-first): an agent's version moved back to an older minor. */
export const agentVersionLowered = graphFinding(
  {
    id: "agent-version-lowered",
    class: "sender-first",
    description: "An agent's declared version moved back to an older minor (for 0.x, an older patch).",
    effect: "Producers that still claim the newer version are refused by the new agent: deploy them first.",
  },
  ({ pair, report }) => {
    for (const { old, new: agent } of pair.keptAgents) {
      if (versionStep(old, agent) !== "lowered") continue;
      report({
        at: versionPlace(pair.new, agent),
        was: versionPlace(pair.old, old),
        owner: agent.id,
        message:
          `agent ${agent.id} moved back from version ${quoteUntrusted(old.version ?? "")} to ${quoteUntrusted(agent.version ?? "")}: the new ${agent.id} refuses ` +
          `envelopes that still claim the newer version, so deploy the agents that hand off to ${agent.id} first`,
        subject: { in: "new", agent: agent.id },
      });
    }
  },
);
