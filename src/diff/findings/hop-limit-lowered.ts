import { hopLimitValue, showHopLimit } from "../hop-limit.js";
import { hopLimitPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `hop-limit-lowered` (breaking): validators cap `hop.limit` lower. */
export const hopLimitLowered = graphFinding(
  {
    id: "hop-limit-lowered",
    class: "breaking",
    description: "The graph's hop limit (declared or auto) went down.",
    effect: "Tasks in flight carry the old hop.limit, which every validator of the new graph refuses as above its cap.",
  },
  ({ pair, report }) => {
    if (hopLimitValue(pair.new.graph) >= hopLimitValue(pair.old.graph)) return;
    report({
      at: hopLimitPlace(pair.new),
      message:
        `the hop limit fell from ${showHopLimit(pair.old.graph)} to ${showHopLimit(pair.new.graph)}: tasks in flight carry the old hop.limit, ` +
        `which every agent on the new graph refuses, and a task already past hop ${hopLimitValue(pair.new.graph) - 1} cannot go on`,
      subject: { in: "new" },
    });
  },
);
