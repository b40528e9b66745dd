import { quoteUntrusted } from "../../core/untrusted-text.js";
import { agentPlace, versionPlace } from "../places.js";
import { graphFinding } from "../rule.js";
import { versionStep } from "../version-step.js";

/** `agent-version-changed` (safe): an agent's version changed in a way no claim notices. */
export const agentVersionChanged = graphFinding(
  {
    id: "agent-version-changed",
    class: "safe",
    description: "An agent's declared version changed within its compatibility range, or was declared or dropped.",
    effect: "Every claim the old graph's producers make still fits, and envelopes that claim no version are always accepted.",
  },
  ({ pair, report }) => {
    for (const { old, new: agent } of pair.keptAgents) {
      const step = versionStep(old, agent);
      if (step !== "compatible" && step !== "declared" && step !== "dropped") continue;
      const before = quoteUntrusted(old.version ?? "");
      const after = quoteUntrusted(agent.version ?? "");
      const message =
        step === "compatible"
          ? `agent ${agent.id} moved from version ${before} to ${after}, within the same range: every claimed version still fits`
          : step === "declared"
            ? `agent ${agent.id} now declares version ${after}: envelopes that claim no version for it are still accepted`
            : `agent ${agent.id} no longer declares a version (was ${before}): claimed versions are no longer checked`;
      report({
        at: step === "dropped" ? agentPlace(pair.new, agent) : versionPlace(pair.new, agent),
        was: versionPlace(pair.old, old),
        owner: agent.id,
        message,
        subject: { in: "new", agent: agent.id },
      });
    }
  },
);
