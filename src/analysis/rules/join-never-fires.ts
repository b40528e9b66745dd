import { describeEdge, listNames } from "../describe.js";
import { branchReach, distinctBranches, fanOutsOf, hasParallelWork, joinsOf, reachedBeforeJoin, routesOf, type Routes } from "../fan-outs.js";
import { joinNeeds, type CheckedEdge, type CheckedJoin } from "../model.js";
import { defineRule } from "../rule.js";

/**
 * `join-never-fires` (error): a join that waits for more arrivals than can come for one task.
 * Only the branches of a fan-out hold one task at once, so the inputs a join counts must lie on
 * different branches of one fan-out; a set of inputs that are alternatives of one choice (a
 * router's routes, or a producer's free choice of one edge) never all arrive. The largest set of
 * inputs on pairwise different branches is a bipartite matching per fan-out.
 */
export const joinNeverFiresRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "join-never-fires",
    severity: "error",
    description: "A join waits for inputs that never all hold one task: they are alternatives of one choice, not branches of one fan-out.",
  },
  check({ model, report }) {
    const { graph, facts } = model;
    if (!hasParallelWork(graph)) return;
    const joins = joinsOf(graph);
    if (joins.length === 0) return;
    const routes = routesOf(graph, facts.route);
    const fanOuts = fanOutsOf(graph).filter((f) => f.edges.length >= 2);
    const joinAgents = new Set(joins.map((j) => j.agent.id));
    const reaches = fanOuts.map((f) => f.edges.map((b) => branchReach(routes, f, b, joinAgents)));
    for (const { agent, join } of joins) {
      // Inputs that run only after the join are join-deadlock's finding, not counted here.
      const before = reachedBeforeJoin(routes, graph.entries, agent.id);
      const inputs = join.inputs.filter((x) => before.has(x) && (routes.get(x) ?? []).some((e) => e.to === agent.id));
      const need = joinNeeds(join);
      if (need < 2 || need > join.inputs.length || inputs.length < need) continue;
      let best = Math.min(1, inputs.length);
      fanOuts.forEach((_, f) => {
        const on = inputs.map((x) => (reaches[f] as Map<string, unknown>[]).flatMap((r, b) => (r.has(x) ? [b] : [])));
        best = Math.max(best, distinctBranches(on, (reaches[f] as unknown[]).length));
      });
      if (best >= need) continue;
      const pair = apartPair(inputs, reaches);
      const choice = pair === undefined ? undefined : chooser(graph.agents.map((a) => a.id), routes, agent.id, pair);
      const reason =
        choice !== undefined
          ? `'${choice.agent}' sends each task one way (${describeEdge(choice.one.decl)} or ${describeEdge(choice.other.decl)})`
          : `no fan-out runs ${pair === undefined ? "them" : listNames(pair)} on different branches`;
      report({
        range: join.decl.range,
        message:
          `the join of '${agent.id}' waits for ${waitText(join)} of ${listNames(join.inputs)}, but at most ${best} can arrive for one task: ${reason}, so the join never fires; ` +
          `make them branches of one fan-out (\`fan_out\` on the delegations that start them), or wait for any`,
      });
    }
  },
});

function waitText(join: CheckedJoin): string {
  return typeof join.wait === "number" ? String(join.wait) : join.wait;
}

/** Two inputs that no fan-out puts on different branches (the first such pair in input order). */
function apartPair(inputs: readonly string[], reaches: readonly (readonly Map<string, unknown>[])[]): [string, string] | undefined {
  for (let i = 0; i < inputs.length; i++) {
    for (let j = i + 1; j < inputs.length; j++) {
      const x = inputs[i] as string;
      const y = inputs[j] as string;
      const together = reaches.some((branches) => branches.some((rx, a) => rx.has(x) && branches.some((ry, b) => b !== a && ry.has(y))));
      if (!together) return [x, y];
    }
  }
  return undefined;
}

/**
 * The agent whose choice separates `x` and `y`: the first agent, in declaration order, with two
 * different routes, one leading to `x` and the other to `y` (without passing the join).
 */
function chooser(
  agents: readonly string[],
  routes: Routes,
  join: string,
  [x, y]: [string, string],
): { agent: string; one: CheckedEdge; other: CheckedEdge; x: string; y: string } | undefined {
  const reverse = new Map<string, CheckedEdge[]>();
  for (const list of routes.values()) {
    for (const edge of list) {
      let into = reverse.get(edge.to);
      if (into === undefined) reverse.set(edge.to, (into = []));
      into.push(edge);
    }
  }
  const backFrom = (target: string): Set<string> => {
    const seen = new Set([target]);
    const queue = [target];
    for (let head = 0; head < queue.length; head++) {
      for (const edge of reverse.get(queue[head] as string) ?? []) {
        if (edge.from === join || seen.has(edge.from)) continue;
        seen.add(edge.from);
        queue.push(edge.from);
      }
    }
    return seen;
  };
  const toX = backFrom(x);
  const toY = backFrom(y);
  for (const agent of agents) {
    if (!toX.has(agent) || !toY.has(agent) || agent === x || agent === y) continue;
    const out = routes.get(agent) ?? [];
    const one = out.find((e) => toX.has(e.to) && !toY.has(e.to)) ?? out.find((e) => toX.has(e.to));
    const other = out.find((e) => e !== one && toY.has(e.to));
    if (one !== undefined && other !== undefined) return { agent, one, other, x, y };
  }
  return undefined;
}
