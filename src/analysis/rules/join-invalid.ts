import type { Identifier } from "../../parser/ast.js";
import { joinsOf } from "../fan-outs.js";
import { defineRule } from "../rule.js";

/**
 * `join-invalid` (error): a join line that cannot mean what it says: an input with no edge to
 * the join agent, an input listed twice, a count outside 1 to n, a deadline of 0 seconds, or an
 * `otherwise` terminal the join agent does not declare. (An input that names no agent is
 * `unknown-agent`.)
 */
export const joinInvalidRule = defineRule({
  meta: {
    id: "join-invalid",
    severity: "error",
    description: "A join input without an edge to the join, an input listed twice, a count outside 1 to n, a 0-second deadline, or an unknown otherwise terminal.",
  },
  check({ model, report }) {
    const { graph, bound } = model;
    const joins = joinsOf(graph);
    if (joins.length === 0) return;
    const senders = new Map<string, Set<string>>();
    for (const edge of graph.edges) {
      let set = senders.get(edge.to);
      if (set === undefined) senders.set(edge.to, (set = new Set()));
      set.add(edge.from);
    }
    for (const { agent, join } of joins) {
      const decl = join.decl;
      const seen = new Set<string>();
      decl.inputs.forEach((input: Identifier) => {
        if (seen.has(input.name)) {
          report({ range: input.range, message: `'${input.name}' is listed twice in the join of '${agent.id}': list each input once` });
          return;
        }
        seen.add(input.name);
        if (!bound.agentIndex.has(input.name)) return;
        if (senders.get(agent.id)?.has(input.name) !== true) {
          report({
            range: input.range,
            message: `'${input.name}' is an input of the join of '${agent.id}' but has no edge to '${agent.id}': add one (a return or transfer ${input.name} -> ${agent.id}) or take it out of the join`,
          });
        }
      });
      const n = join.inputs.length;
      if (typeof join.wait === "number" && (join.wait < 1 || join.wait > n)) {
        report({
          range: decl.wait.range,
          message: `the join of '${agent.id}' waits for ${join.wait} of ${n} input${n === 1 ? "" : "s"}: write a count from 1 to ${n}, or 'all' or 'any'`,
        });
      }
      if (decl.within !== undefined && decl.within.value === 0) {
        report({ range: decl.within.range, message: `the join of '${agent.id}' waits 0 seconds: write a deadline of at least 1 second, or leave 'within' out` });
      }
      const otherwise = join.otherwise;
      if (otherwise !== "escalate" && !agent.terminals.some((t) => t.id === otherwise.terminal) && decl.otherwise !== undefined) {
        report({
          range: decl.otherwise.range,
          message: `the join of '${agent.id}' ends the task at '${otherwise.terminal}' otherwise, but '${agent.id}' declares no terminal '${otherwise.terminal}': add \`terminal ${otherwise.terminal} failed\` to '${agent.id}', or write 'otherwise escalate'`,
        });
      }
    }
  },
});
