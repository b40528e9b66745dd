import { countOf, formatWalk } from "../describe.js";
import { treePath } from "../graph/traversal.js";
import { defineRule } from "../rule.js";

/**
 * `hop-limit-too-low`: a declared `hop_limit` that is at most the fewest handoffs from an entry to
 * a terminal (error: no task could finish, since ingest rejects `hop.index >= hop.limit`), or at
 * most H, the longest walk that `max_rounds` allows (warning: some allowed walks are cut off).
 * Where H is unbounded the warning is left to `unbounded-cycle`.
 */
export const hopLimitTooLowRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "hop-limit-too-low",
    severity: "error",
    description: "A declared hop_limit stops every task (error) or some walks the graph allows (warning).",
  },
  check({ model, report }) {
    const { graph, facts, bound } = model;
    const declared = graph.hopLimit.declared;
    const decl = bound.hopLimit;
    if (declared === undefined || decl === undefined) return;
    const { shortestWalk, longestWalk, exact } = graph.hopLimit;
    if (shortestWalk !== undefined && declared <= shortestWalk) {
      let target = -1;
      for (const v of facts.fromEntries.order) {
        if (facts.terminal[v] === 1) {
          target = v;
          break;
        }
      }
      const path = treePath(facts.fromEntries, target).map((v) => (bound.agents[v] as { id: string }).id);
      report({
        range: decl.value.range,
        message: `hop_limit ${declared} stops every task: the shortest walk to a terminal, ${formatWalk(path)}, takes ${countOf(shortestWalk, "handoff")}, and ingest rejects hop.index >= hop.limit; raise hop_limit to at least ${shortestWalk + 1}, or use auto.`,
      });
      return;
    }
    if (longestWalk !== undefined && declared <= longestWalk) {
      report({
        range: decl.value.range,
        severity: "warning",
        message: `hop_limit ${declared} cuts off walks that max_rounds allows: the longest takes ${exact ? "" : "at most "}${countOf(longestWalk, "handoff")}${exact ? "" : " (an upper bound)"}, so it needs a limit of ${longestWalk + 1}; raise hop_limit to ${longestWalk + 1} or use auto.`,
      });
    }
  },
});
