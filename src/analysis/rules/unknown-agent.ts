import type { EdgeDecl, Identifier } from "../../parser/ast.js";
import type { BoundAgent } from "../bind.js";
import { describeEdge } from "../describe.js";
import { defineRule } from "../rule.js";
import { suggestName } from "../suggest.js";

/** Edit-distance comparisons per graph for all "did you mean" suggestions together. */
const SUGGESTION_BUDGET = 200_000;

/** `unknown-agent` (error): an edge, an entry or a join names no declared agent; suggests the nearest id. */
export const unknownAgentRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "unknown-agent",
    severity: "error",
    description: "An edge, entry or join names an agent that is not declared in the graph.",
  },
  check({ model, report }) {
    const { agentIndex, agents, items } = model.bound;
    // Suggestions are computed once per distinct unknown name, against the declared ids only.
    const suggestions = new Map<string, string | undefined>();
    const shared = { remaining: SUGGESTION_BUDGET };
    const reportUnknown = (name: Identifier, where: string): void => {
      if (!suggestions.has(name.name)) suggestions.set(name.name, suggestName(name.name, agentIndex.keys(), { shared }));
      const suggestion = suggestions.get(name.name);
      const fix = suggestion
        ? `did you mean '${suggestion}'?`
        : `declare it with \`agent ${name.name}: worker\` (or the right role) or fix the name.`;
      report({ range: name.range, message: `unknown agent '${name.name}' in ${where}: ${fix}` });
    };
    for (const item of items.settings) {
      if (item.kind !== "Entry") continue;
      for (const agent of item.agents) if (!agentIndex.has(agent.name)) reportUnknown(agent, "the entry line");
    }
    // An index loop: see docs/performance.md, "Loops over a large graph".
    for (let a = 0; a < agents.length; a++) {
      const agent = agents[a] as BoundAgent;
      for (const input of agent.join?.decl.inputs ?? []) if (!agentIndex.has(input.name)) reportUnknown(input, `the join of '${agent.id}'`);
    }
    // Name ids at or past the agent count are undeclared names (see `bind.ts`).
    const { edges, edgeFromName, edgeToName } = items;
    for (let i = 0; i < edges.length; i++) {
      if ((edgeFromName[i] as number) < agents.length && (edgeToName[i] as number) < agents.length) continue;
      const edge = edges[i] as EdgeDecl;
      if ((edgeFromName[i] as number) >= agents.length) reportUnknown(edge.from, describeEdge(edge));
      if ((edgeToName[i] as number) >= agents.length) reportUnknown(edge.to, describeEdge(edge));
    }
  },
});
