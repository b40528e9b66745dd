import { quoteUntrusted } from "../../core/untrusted-text.js";
import { versionPlace } from "../places.js";
import { graphFinding } from "../rule.js";
import { versionStep } from "../version-step.js";

/** `agent-major-changed` (breaking): an agent's version moved to another major. */
export const agentMajorChanged = graphFinding(
  {
    id: "agent-major-changed",
    class: "breaking",
    description: "An agent's declared version moved to another major (for 0.x, another minor).",
    effect:
      "Envelopes that claim the old version are refused by the new agent and the reverse; the announced way to break a contract: keep the old agent running until no task claims its version.",
  },
  ({ pair, report }) => {
    for (const { old, new: agent } of pair.keptAgents) {
      if (versionStep(old, agent) !== "major") continue;
      report({
        at: versionPlace(pair.new, agent),
        was: versionPlace(pair.old, old),
        owner: agent.id,
        message:
          `agent ${agent.id} moved from version ${quoteUntrusted(old.version ?? "")} to ${quoteUntrusted(agent.version ?? "")}, another major: ` +
          `envelopes that claim the old version are refused by the new ${agent.id}, and the reverse; keep the old ${agent.id} running until no task in flight claims it`,
        subject: { in: "new", agent: agent.id },
      });
    }
  },
);
