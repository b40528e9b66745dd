import type { Range } from "../../core/source-file.js";
import type { BoundAgent } from "../bind.js";
import { componentMembers, stronglyConnectedComponents } from "../graph/scc.js";
import { breadthFirst, cycleThrough, treePath } from "../graph/traversal.js";
import { formatWalk, listNames, MAX_RELATED } from "../describe.js";
import { defineRule } from "../rule.js";


/**
 * `no-terminal-path` (error): agents an entry reaches from which no terminal can be reached.
 *
 * Such "doomed" agents only hand work to other doomed agents, so they drain into traps: the sink
 * components of the doomed subgraph, each a cycle (concierge -> planner -> concierge) or a single
 * dead end. One diagnostic per trap, on the trap agent nearest an entry, with the cycle or the
 * path to the dead end as witness; every other doomed agent is named in the diagnostic of the
 * trap it drains into (nearest first): in the message and as related information, up to 50 of them
 * so that a 10^5-agent chain into one dead end gives one readable diagnostic.
 */
export const noTerminalPathRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "no-terminal-path",
    severity: "error",
    description: "An agent reachable from an entry cannot reach any terminal, so tasks there never end.",
  },
  check({ model, report }) {
    const { facts, bound } = model;
    const { walk, reachable, canTerminate, fromEntries } = facts;
    const n = walk.size;
    const doomed = new Uint8Array(n);
    let anyDoomed = false;
    for (let v = 0; v < n; v++) {
      if (reachable[v] === 1 && canTerminate[v] === 0) doomed[v] = 1;
      anyDoomed ||= doomed[v] === 1;
    }
    if (!anyDoomed) return;
    const name = (v: number): string => (bound.agents[v] as BoundAgent).id;
    const agentRange = (v: number): Range => (bound.agents[v] as BoundAgent).decl.name.range;

    const components = stronglyConnectedComponents(walk);
    const members = componentMembers(components);
    const isTrap = new Uint8Array(components.count);
    for (let c = 0; c < components.count; c++) {
      const group = members[c] as Int32Array;
      if (doomed[group[0] as number] !== 1) continue;
      isTrap[c] = 1;
      for (const v of group) {
        for (let s = walk.offsets[v] as number; s < (walk.offsets[v + 1] as number); s++) {
          if (components.component[walk.targets[s] as number] !== c) isTrap[c] = 0;
        }
      }
    }
    // The trap each doomed agent drains into: nearest by a backward search from all trap agents.
    const trapAgents: number[] = [];
    for (let v = 0; v < n; v++) if (isTrap[components.component[v] as number] === 1) trapAgents.push(v);
    const back = breadthFirst(facts.reverse, trapAgents, doomed);
    const trapOf = new Int32Array(n).fill(-1);
    for (const v of back.order) {
      const parent = back.parent[v] as number;
      trapOf[v] = parent === -1 ? (components.component[v] as number) : (trapOf[parent] as number);
    }
    const upstream = new Map<number, number[]>();
    for (let v = 0; v < n; v++) {
      const trap = trapOf[v] as number;
      if (doomed[v] !== 1 || trap === -1 || isTrap[components.component[v] as number] === 1) continue;
      const list = upstream.get(trap) ?? [];
      list.push(v);
      upstream.set(trap, list);
    }

    for (let c = 0; c < components.count; c++) {
      if (isTrap[c] !== 1) continue;
      const group = Array.from(members[c] as Int32Array);
      // Start at the trap agent an entry reaches first (ties: declaration order).
      let start = group[0] as number;
      for (const v of group) if ((fromEntries.distance[v] as number) < (fromEntries.distance[start] as number)) start = v;
      const inPath = treePath(fromEntries, start).map(name);
      const reachedBy = inPath.length > 1 ? ` (reached by ${formatWalk(inPath)})` : ` (from the entry '${name(start)}')`;
      const feeders = (upstream.get(c) ?? []).sort((a, b) => (fromEntries.distance[a] as number) - (fromEntries.distance[b] as number) || a - b);
      const also = feeders.length > 0 ? ` ${listNames(feeders.map(name))} lead${feeders.length === 1 ? "s" : ""} only here and cannot finish either.` : "";
      let message: string;
      let path: string[] | undefined;
      if (components.cyclic[c] === 1) {
        const cycle = [name(start), ...cycleThrough(walk, start, components.component).map((s) => name(walk.targets[s] as number))];
        path = cycle;
        message =
          `${listNames(group.map(name))} can never reach a terminal: a task that enters ${group.length > 1 ? "them" : "it"}${reachedBy} circles ${formatWalk(cycle)} with no way out.` +
          `${also} Add a terminal to one of them, or an edge to an agent that can finish.`;
      } else {
        message =
          `agent '${name(start)}'${reachedBy} can never reach a terminal: it has no terminal and hands the task to no one who can finish.` +
          `${also} Add a terminal to '${name(start)}', or an edge from it to an agent that can finish.`;
      }
      const related = [
        ...group.filter((v) => v !== start).slice(0, MAX_RELATED).map((v) => ({ message: `'${name(v)}' is part of the same trap`, range: agentRange(v) })),
        ...feeders.slice(0, MAX_RELATED).map((v) => ({ message: `'${name(v)}' leads only into this trap`, range: agentRange(v) })),
      ];
      report({ range: agentRange(start), message, related, ...(path ? { path } : {}) });
    }
  },
});
