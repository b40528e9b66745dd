import { entryPlace, nearestAgentPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `entry-removed` (breaking): an agent that remains is no longer an entry. */
export const entryRemoved = graphFinding(
  {
    id: "entry-removed",
    class: "breaking",
    description: "An agent is no longer an entry of the graph.",
    effect: "hop.path must start at an entry, so every agent refuses the tasks in flight that started there.",
  },
  ({ pair, report }) => {
    const entries = new Set(pair.new.graph.entries);
    for (const id of pair.old.graph.entries) {
      if (entries.has(id) || !pair.new.agents.has(id)) continue;
      report({
        at: nearestAgentPlace(pair.new, id),
        was: entryPlace(pair.old, id),
        message: `${id} is no longer an entry: hop.path must start at an entry, so every agent refuses the tasks in flight that started at ${id} (bad-hop-path)`,
        subject: { in: "new", agent: id },
      });
    }
  },
);
