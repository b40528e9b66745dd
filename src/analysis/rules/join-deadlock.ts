import { formatWalk } from "../describe.js";
import { hasParallelWork, joinsOf, reach, reachedBeforeJoin, routesOf, walkTo } from "../fan-outs.js";
import { defineRule } from "../rule.js";

/**
 * `join-deadlock` (error): a join that waits for an agent which runs only after the join: every
 * walk from an entry to the input passes the join agent and leaves it by an edge that is not one
 * of its own fan-out's branches (a handoff the join holds back until it fires). Found by one
 * search from the entries with those edges taken out, per join.
 */
export const joinDeadlockRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "join-deadlock",
    severity: "error",
    description: "A join waits for an agent that runs only after the join hands the task on: it waits on its own successor.",
  },
  check({ model, report }) {
    const { graph, facts, bound } = model;
    if (!hasParallelWork(graph)) return;
    const joins = joinsOf(graph);
    if (joins.length === 0) return;
    const routes = routesOf(graph, facts.route);
    for (const { agent, join } of joins) {
      if (!agent.reachable) continue;
      const before = reachedBeforeJoin(routes, graph.entries, agent.id);
      let after: Map<string, unknown> | undefined;
      for (const input of join.decl.inputs) {
        const index = bound.agentIndex.get(input.name);
        if (index === undefined || facts.reachable[index] !== 1 || before.has(input.name)) continue;
        const found = (after ??= reach(routes, [agent.id])) as ReturnType<typeof reach>;
        if (!found.has(input.name)) continue;
        const walk = walkTo(found, input.name);
        report({
          range: input.range,
          message:
            `the join of '${agent.id}' waits for '${input.name}', which runs only after '${agent.id}' hands the task on (${formatWalk(walk)}): ` +
            `the join waits on its own successor and never fires; take '${input.name}' out of the join, or start it before the join as a branch of a fan-out`,
          path: walk,
        });
      }
    }
  },
});
