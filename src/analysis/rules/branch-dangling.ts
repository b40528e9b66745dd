import { describeEdge, edgeHeaderRange } from "../describe.js";
import { branchReach, fanOutsOf, hasParallelWork, joinsOf, routesOf } from "../fan-outs.js";
import { defineRule } from "../rule.js";

/**
 * `branch-dangling` (error): a branch of a fan-out from which no walk returns to the supervisor
 * that fanned out, hands off to a join that counts it, or ends at a terminal. What the branch
 * does is lost, and a join waiting for it never completes.
 */
export const branchDanglingRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "branch-dangling",
    severity: "error",
    description: "A branch of a fan-out reaches neither its supervisor, a join that waits for it, nor a terminal.",
  },
  check({ model, report }) {
    const { graph, facts } = model;
    if (!hasParallelWork(graph)) return;
    const routes = routesOf(graph, facts.route);
    const joins = joinsOf(graph);
    const joinAgents = new Set(joins.map((j) => j.agent.id));
    const inputsOf = new Map(joins.map((j) => [j.agent.id, new Set(j.join.inputs)]));
    const terminal = new Set(graph.agents.filter((a) => a.terminals.length > 0).map((a) => a.id));
    for (const fanOut of fanOutsOf(graph)) {
      if (fanOut.edges.length < 2) continue;
      for (const branch of fanOut.edges) {
        if (facts.route[branch.index] !== 1) continue;
        const found = branchReach(routes, fanOut, branch, joinAgents);
        const stops = (agent: string): boolean => agent !== branch.to && (agent === fanOut.from || joinAgents.has(agent));
        const ends = [...found.keys()].some((agent) =>
          agent === fanOut.from
            ? agent !== branch.to
            : !stops(agent) && (terminal.has(agent) || (routes.get(agent) ?? []).some((e) => inputsOf.get(e.to)?.has(agent) === true)),
        );
        if (ends) continue;
        report({
          range: edgeHeaderRange(branch.decl),
          message:
            `branch ${describeEdge(branch.decl)} of fan-out '${fanOut.name}' reaches neither '${fanOut.from}', a join that waits for it, nor a terminal: ` +
            `what it does is lost; add a return to '${fanOut.from}', an edge into a join that lists it, or a terminal`,
        });
      }
    }
  },
});
