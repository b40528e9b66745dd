import { listNames } from "../describe.js";
import { branchReach, fanOutsOf, hasParallelWork, joinsOf, routesOf } from "../fan-outs.js";
import { defineRule } from "../rule.js";
import { fanOutLine } from "./fan-out-invalid.js";

/**
 * `fan-out-unjoined` (warning): the branches of a fan-out hand their results back to the
 * supervisor that fanned out, but no join waits for any of them: the first result to come back
 * moves the task on, and the work of the other branches (paid for) is never used.
 */
export const fanOutUnjoinedRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "fan-out-unjoined",
    severity: "warning",
    description: "A fan-out's results come back to its supervisor, but no join waits for them.",
  },
  check({ model, report }) {
    const { graph, facts } = model;
    if (!hasParallelWork(graph)) return;
    const routes = routesOf(graph, facts.route);
    const joins = joinsOf(graph);
    const joinAgents = new Set(joins.map((j) => j.agent.id));
    const inputs = new Set(joins.flatMap((j) => j.join.inputs));
    for (const fanOut of fanOutsOf(graph)) {
      if (fanOut.edges.length < 2) continue;
      const returners: string[] = [];
      let joined = false;
      for (const branch of fanOut.edges) {
        for (const agent of branchReach(routes, fanOut, branch, joinAgents).keys()) {
          if (agent === fanOut.from || joinAgents.has(agent)) continue;
          if (inputs.has(agent)) joined = true;
          if ((routes.get(agent) ?? []).some((e) => e.to === fanOut.from) && !returners.includes(agent)) returners.push(agent);
        }
      }
      if (joined || returners.length === 0) continue;
      const line = fanOutLine(fanOut.edges[0] as (typeof fanOut.edges)[number]);
      if (line === undefined) continue;
      const targets = fanOut.edges.map((e) => e.to);
      report({
        range: line.range,
        message:
          `fan-out '${fanOut.name}' of '${fanOut.from}' hands each task to ${listNames(targets)} at once, and results come back to '${fanOut.from}', but no join waits for them: ` +
          `the first to come back moves the task on and the others' work is lost; add \`join all of ${returners.join(", ")}\` to '${fanOut.from}'`,
      });
    }
  },
});
