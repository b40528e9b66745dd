import { onHopLimitPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `on-hop-limit-changed` (safe): what happens at the hop limit changed. */
export const onHopLimitChanged = graphFinding(
  {
    id: "on-hop-limit-changed",
    class: "safe",
    description: "on_hop_limit changed between escalate and failed.",
    effect: "No handoff is refused that was accepted before; a task that reaches the limit takes the new route.",
  },
  ({ pair, report }) => {
    const before = pair.old.graph.onHopLimit;
    const after = pair.new.graph.onHopLimit;
    if (before === after) return;
    report({
      at: onHopLimitPlace(pair.new),
      message: `on_hop_limit is now ${after}, not ${before}: a task that reaches the hop limit is routed to ${after === "escalate" ? "a human" : "failure"}; nothing else is refused`,
      subject: { in: "new" },
    });
  },
);
