import type { Range } from "../../core/source-file.js";
import type { CheckedEdge } from "../model.js";
import { describeEdge, edgeHeaderRange } from "../describe.js";
import { defineRule } from "../rule.js";
import { assertNever } from "../../core/vocabulary.js";

/**
 * `role-mismatch` (error): an edge kind used between roles that the vocabulary's edge-kind table
 * (`core/vocabulary.ts`) does not allow. delegate: supervisor -> worker | supervisor; return: worker | supervisor -> a supervisor
 * that delegates to it; transfer: worker | peer -> worker | peer.
 */
export const roleMismatchRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "role-mismatch",
    severity: "error",
    description: "An edge kind is used between roles that may not use it.",
  },
  check({ model, report }) {
    const { agents, edgeFrom, edgeTo } = model.bound;
    const { paired } = model.facts;
    const problem = (edge: CheckedEdge, range: Range, message: string): void =>
      report({ range, message: `${describeEdge(edge.decl)}: ${message}` });
    // An index loop: see docs/performance.md, "Loops over a large graph".
    for (let e = 0; e < model.graph.edges.length; e++) {
      const edge = model.graph.edges[e] as CheckedEdge;
      const from = agents[edgeFrom[edge.index] as number];
      const to = agents[edgeTo[edge.index] as number];
      if (from === undefined || to === undefined) continue;
      switch (edge.kind) {
        case "delegate":
          if (from.role !== "supervisor") {
            problem(edge, edge.decl.from.range, `only a supervisor delegates, and '${from.id}' is a ${from.role}; use transfer to hand accountability over, or make '${from.id}' a supervisor.`);
          }
          if (to.role === "peer") {
            problem(edge, edge.decl.to.range, `a supervisor delegates to a worker or a supervisor, and '${to.id}' is a peer; make '${to.id}' a worker or use transfer.`);
          }
          break;
        case "return":
          if (from.role === "peer") {
            problem(edge, edge.decl.from.range, `'${from.id}' is a peer and was never delegated to, so it has nothing to return; use transfer, or make '${from.id}' a worker.`);
          }
          if (to.role !== "supervisor") {
            problem(edge, edge.decl.to.range, `results return only to a supervisor, and '${to.id}' is a ${to.role}; use transfer, or make '${to.id}' a supervisor.`);
          } else if (paired[edge.index] !== 1) {
            problem(edge, edgeHeaderRange(edge.decl), `'${to.id}' never delegates to '${from.id}', so there is nothing to return; add \`delegate ${to.id} -> ${from.id}\` or use transfer.`);
          }
          break;
        case "transfer":
          if (from.role === "supervisor") {
            problem(edge, edge.decl.from.range, `a supervisor keeps accountability and does not transfer it; '${from.id}' should delegate (or be a worker or peer).`);
          }
          if (to.role === "supervisor") {
            problem(edge, edge.decl.to.range, `accountability moves only to a worker or a peer, and '${to.id}' is a supervisor; use return if '${to.id}' delegated the work, or change its role.`);
          }
          break;
        default:
          assertNever(edge.kind, "edge kind");
      }
    }
  },
});
