import type { Range } from "../../core/source-file.js";
import type { EdgeDecl, EdgeKind } from "../../parser/ast.js";
import { EDGE_KINDS } from "../bind.js";
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
    const { agents, edgeFrom, edgeTo, edgeKind, edgeDecl } = model.bound;
    const { paired } = model.facts;
    const problem = (e: number, rangeOf: (decl: EdgeDecl) => Range, message: string): void => {
      const decl = edgeDecl[e] as EdgeDecl;
      report({ range: rangeOf(decl), message: `${describeEdge(decl)}: ${message}` });
    };
    // An index loop over the columns, not the checked edges: see docs/performance.md, "Loops over
    // a large graph"; an edge's declaration is read only for a finding.
    for (let e = 0; e < edgeKind.length; e++) {
      const from = agents[edgeFrom[e] as number];
      const to = agents[edgeTo[e] as number];
      if (from === undefined || to === undefined) continue;
      const kind = EDGE_KINDS[edgeKind[e] as number] as EdgeKind;
      switch (kind) {
        case "delegate":
          if (from.role !== "supervisor") {
            problem(e, fromRange, `only a supervisor delegates, and '${from.id}' is a ${from.role}; use transfer to hand accountability over, or make '${from.id}' a supervisor.`);
          }
          if (to.role === "peer") {
            problem(e, toRange, `a supervisor delegates to a worker or a supervisor, and '${to.id}' is a peer; make '${to.id}' a worker or use transfer.`);
          }
          break;
        case "return":
          if (from.role === "peer") {
            problem(e, fromRange, `'${from.id}' is a peer and was never delegated to, so it has nothing to return; use transfer, or make '${from.id}' a worker.`);
          }
          if (to.role !== "supervisor") {
            problem(e, toRange, `results return only to a supervisor, and '${to.id}' is a ${to.role}; use transfer, or make '${to.id}' a supervisor.`);
          } else if (paired[e] !== 1) {
            problem(e, edgeHeaderRange, `'${to.id}' never delegates to '${from.id}', so there is nothing to return; add \`delegate ${to.id} -> ${from.id}\` or use transfer.`);
          }
          break;
        case "transfer":
          if (from.role === "supervisor") {
            problem(e, fromRange, `a supervisor keeps accountability and does not transfer it; '${from.id}' should delegate (or be a worker or peer).`);
          }
          if (to.role === "supervisor") {
            problem(e, toRange, `accountability moves only to a worker or a peer, and '${to.id}' is a supervisor; use return if '${to.id}' delegated the work, or change its role.`);
          }
          break;
        default:
          assertNever(kind, "edge kind");
      }
    }
  },
});

/** Where a finding about an edge's source or target is shown: that end's name. */
const fromRange = (decl: EdgeDecl): Range => decl.from.range;
const toRange = (decl: EdgeDecl): Range => decl.to.range;
