import { entryPlace } from "../places.js";
import { graphFinding } from "../rule.js";

/** `entry-added` (receiver-first): a new entry. */
export const entryAdded = graphFinding(
  {
    id: "entry-added",
    class: "receiver-first",
    description: "An agent became an entry of the graph.",
    effect: "Agents on the old graph refuse tasks whose hop.path starts there: deploy every agent before starting tasks at it.",
  },
  ({ pair, report }) => {
    const entries = new Set(pair.old.graph.entries);
    for (const id of pair.new.graph.entries) {
      if (entries.has(id)) continue;
      report({
        at: entryPlace(pair.new, id),
        message: `${id} is a new entry: agents on the old graph refuse tasks whose hop.path starts at ${id} (bad-hop-path), so deploy every agent before starting tasks there`,
        subject: { in: "new", agent: id },
      });
    }
  },
);
