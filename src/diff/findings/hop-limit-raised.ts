import { hopLimitValue, showHopLimit } from "../hop-limit.js";
import { hopLimitPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `hop-limit-raised` (receiver-first): validators cap `hop.limit` higher. */
export const hopLimitRaised = graphFinding(
  {
    id: "hop-limit-raised",
    class: "receiver-first",
    description: "The graph's hop limit (declared or auto) went up.",
    effect: "Agents on the old graph refuse an envelope whose hop.limit is above their cap: deploy every agent before the entries stamp the new limit.",
  },
  ({ pair, report }) => {
    if (hopLimitValue(pair.new.graph) <= hopLimitValue(pair.old.graph)) return;
    report({
      at: hopLimitPlace(pair.new),
      message:
        `the hop limit rose from ${showHopLimit(pair.old.graph)} to ${showHopLimit(pair.new.graph)}: agents on the old graph refuse a hop.limit above ` +
        `${hopLimitValue(pair.old.graph)}, so deploy every agent before the entries stamp the new limit`,
      subject: { in: "new" },
    });
  },
);
