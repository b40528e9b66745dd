import { boundName } from "../../core/diagnostic.js";
import type { BoundAgent } from "../bind.js";
import { formatWalk } from "../describe.js";
import { defineRule } from "../rule.js";

/**
 * `ungated-effect` (warning): an agent declared with an external effect (`effect "..."`) can be
 * reached from an entry on a walk that passes no approval gate: no gate agent before it, no
 * `gate` edge on the way. The message gives such a walk. A breadth-first search from the entries
 * over the edges a task can take, that neither crosses a gated edge nor goes on from a gate
 * agent, finds exactly the agents reachable without a gate (and the shortest such walk).
 */
export const ungatedEffectRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "ungated-effect",
    severity: "warning",
    description: "An agent with an external effect can be reached from an entry without passing an approval gate.",
  },
  check({ model, report }) {
    const { bound, facts } = model;
    const agents = bound.agents;
    if (!agents.some((a) => a.effect !== undefined)) return;
    const { walk } = facts;
    const parent = new Int32Array(agents.length).fill(-2);
    const queue: number[] = [];
    for (const entry of bound.entries) {
      if (parent[entry] !== -2) continue;
      parent[entry] = -1;
      queue.push(entry);
    }
    for (let head = 0; head < queue.length; head++) {
      const v = queue[head] as number;
      // What leaves a gate carries an approval: the walk is gated from here on.
      if ((agents[v] as BoundAgent).gate === true) continue;
      for (let s = walk.offsets[v] as number; s < (walk.offsets[v + 1] as number); s++) {
        if (bound.edgeGate[walk.edgeIds[s] as number] === 1) continue;
        const w = walk.targets[s] as number;
        if (parent[w] !== -2) continue;
        parent[w] = v;
        queue.push(w);
      }
    }
    agents.forEach((agent, v) => {
      if (agent.effect === undefined || parent[v] === -2) return;
      const path: string[] = [];
      for (let u = v; u >= 0; u = parent[u] as number) path.push((agents[u] as BoundAgent).id);
      path.reverse();
      const name = boundName(agent.id);
      report({
        range: agent.decl.name.range,
        path,
        message:
          path.length === 1
            ? `agent ${name} (${boundName(agent.effect)}) is an entry: tasks reach its effect before any approval gate can; let a gate agent hand tasks to it instead`
            : `agent ${name} (${boundName(agent.effect)}) is reached without an approval gate: ${formatWalk(path)} passes no gate; add \`gate\` to an agent or edge on that walk`,
      });
    });
  },
});
