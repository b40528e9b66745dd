import { branchReach, fanOutsOf, hasParallelWork, joinsOf, routesOf } from "../fan-outs.js";
import { defineRule } from "../rule.js";
import { fanOutLine } from "./fan-out-invalid.js";

/**
 * `fan-out-nested` (error): a fan-out whose supervisor works inside a branch of another fan-out
 * (reached by that branch before it returns to its supervisor or arrives at a join). The ledger
 * follows one fan-out of a task at a time, so while the outer one is open ingest would refuse the
 * inner fan-out's delegations: a graph that checks clean would be refused at run time.
 */
export const fanOutNestedRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "fan-out-nested",
    severity: "error",
    description: "A fan-out whose supervisor works inside a branch of another fan-out.",
  },
  check({ model, report }) {
    const { graph, facts } = model;
    if (!hasParallelWork(graph)) return;
    const routes = routesOf(graph, facts.route);
    const joinAgents = new Set(joinsOf(graph).map((j) => j.agent.id));
    const fanOuts = fanOutsOf(graph).filter((f) => f.edges.length >= 2);
    const bySupervisor = new Map<string, typeof fanOuts>();
    for (const fanOut of fanOuts) bySupervisor.set(fanOut.from, [...(bySupervisor.get(fanOut.from) ?? []), fanOut]);
    const reported = new Set<(typeof fanOuts)[number]>();
    for (const outer of fanOuts) {
      for (const branch of outer.edges) {
        if (facts.route[branch.index] !== 1) continue;
        for (const agent of branchReach(routes, outer, branch, joinAgents).keys()) {
          // Past its own target, the outer supervisor and the joins are where a branch ends, not where it works.
          if (agent !== branch.to && (agent === outer.from || joinAgents.has(agent))) continue;
          for (const inner of bySupervisor.get(agent) ?? []) {
            if (reported.has(inner)) continue;
            const line = fanOutLine(inner.edges[0] as (typeof inner.edges)[number]);
            if (line === undefined) continue;
            reported.add(inner);
            report({
              range: line.range,
              message:
                `fan-out '${inner.name}' of '${inner.from}' starts inside branch '${outer.name}/${branch.to}' of fan-out '${outer.name}' of '${outer.from}': ` +
                `the ledger follows one fan-out of a task at a time, so ingest would refuse these delegations while '${outer.name}' is open; ` +
                `make them plain delegations, or fan out from '${outer.from}' once '${outer.name}' is done`,
            });
          }
        }
      }
    }
  },
});
