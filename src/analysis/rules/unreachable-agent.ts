import { listNames } from "../describe.js";
import { defineRule } from "../rule.js";

/** `unreachable-agent` (warning): no walk from any entry reaches the agent. */
export const unreachableAgentRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "unreachable-agent",
    severity: "warning",
    description: "No path from any entry reaches this agent.",
  },
  check({ model, report }) {
    const { agents, entries } = model.bound;
    // Without an entry everything is unreachable; missing-entry already says so.
    if (entries.length === 0) return;
    const entryNames = listNames(entries.map((e) => (agents[e] as { id: string }).id), 3);
    agents.forEach((agent, v) => {
      if (model.facts.reachable[v] === 1) return;
      report({
        range: agent.decl.name.range,
        message: `agent '${agent.id}' is never reached from ${entries.length > 1 ? "the entries" : "the entry"} ${entryNames}: add an edge to it, make it an entry, or remove it.`,
      });
    });
  },
});
