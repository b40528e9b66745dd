import type { BoundAgent } from "../bind.js";
import { countOf, formatWalk, listNames } from "../describe.js";
import { breadthFirst } from "../graph/traversal.js";
import { defineRule } from "../rule.js";

/**
 * `hop-limit-too-low`: a declared `hop_limit` that is at most the fewest handoffs from some entry
 * to a terminal (error: no task entering there could finish, since ingest rejects
 * `hop.index >= hop.limit`), or at most H, the longest walk that `max_rounds` allows (warning:
 * some allowed walks are cut off). The error is judged per entry, so one entry far from every
 * terminal is found even when another entry finishes in one handoff. Where H is unbounded the
 * warning is left to `unbounded-cycle`.
 */
export const hopLimitTooLowRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "hop-limit-too-low",
    severity: "error",
    description: "A declared hop_limit stops every task entering at some entry (error) or some walks the graph allows (warning).",
  },
  check({ model, report }) {
    const { graph, facts, bound } = model;
    const declared = graph.hopLimit.declared;
    const decl = bound.hopLimit;
    if (declared === undefined || decl === undefined) return;
    // Breadth-first from the terminals over the reversed edges: distance = fewest handoffs from
    // each agent to a terminal, and the tree parent is the next agent of such a walk.
    const terminals: number[] = [];
    for (let v = 0; v < bound.agents.length; v++) if (facts.terminal[v] === 1) terminals.push(v);
    const toTerminal = breadthFirst(facts.reverse, terminals);
    const finishing = bound.entries.filter((e) => toTerminal.distance[e] !== -1);
    const blocked = finishing.filter((e) => declared <= (toTerminal.distance[e] as number));
    const name = (v: number): string => (bound.agents[v] as BoundAgent).id;
    if (blocked.length > 0) {
      // The entry farthest from a terminal sets the limit that lets every entry finish.
      let worst = blocked[0] as number;
      for (const e of blocked) if ((toTerminal.distance[e] as number) > (toTerminal.distance[worst] as number)) worst = e;
      const path = [worst];
      for (let v = worst; toTerminal.parent[v] !== -1; ) {
        v = toTerminal.parent[v] as number;
        path.push(v);
      }
      const distance = toTerminal.distance[worst] as number;
      const whom = blocked.length === finishing.length ? "every task" : `every task entering at ${listNames(blocked.map(name))}`;
      report({
        range: decl.value.range,
        message: `hop_limit ${declared} stops ${whom}: the shortest walk from entry '${name(worst)}' to a terminal, ${formatWalk(path.map(name))}, takes ${countOf(distance, "handoff")}, and ingest rejects hop.index >= hop.limit; raise hop_limit to at least ${distance + 1}, or use auto.`,
        path: path.map(name),
      });
      return;
    }
    const { longestWalk, exact } = graph.hopLimit;
    if (longestWalk !== undefined && declared <= longestWalk) {
      report({
        range: decl.value.range,
        severity: "warning",
        message: `hop_limit ${declared} cuts off walks that max_rounds allows: the longest takes ${exact ? "" : "at most "}${countOf(longestWalk, "handoff")}${exact ? "" : " (an upper bound)"}, so it needs a limit of ${longestWalk + 1}; raise hop_limit to ${longestWalk + 1} or use auto.`,
      });
    }
  },
});
