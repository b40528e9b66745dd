import type { EdgeDecl } from "../../parser/ast.js";
import type { BoundAgent } from "../bind.js";
import { describeEdge } from "../describe.js";
import { AWAITING_REVIEW, describeState } from "../guards.js";
import { defineRule } from "../rule.js";
import { agentsWithLostRoutes } from "../lost-routes.js";
import { boundName } from "../../core/diagnostic.js";

/**
 * `guard-unreachable` (warning): a guarded edge can never be the route: its guard matches no
 * envelope (`confidence > 0.9 and confidence < 0.5`), every envelope it matches takes an earlier
 * route (routes are tried in source order), or it is an `otherwise` with nothing left to take.
 * Nothing `waiting_review` leaves an approval gate, so a guard out of a gate that asks for that
 * status alone never matches either. Such an edge is no route: reachability, traps and hop
 * limits leave it out.
 */
export const guardUnreachableRule = defineRule({
  // A router is judged whole: a guarded edge lost to a syntax error changes what the others cover and shadow.
  wholeGraph: true,
  meta: {
    id: "guard-unreachable",
    severity: "warning",
    description: "A guarded edge can never be the route: its guard never matches, or earlier routes take everything it matches.",
  },
  check({ model, report }) {
    const { bound, facts } = model;
    const lost = agentsWithLostRoutes(bound);
    for (const router of facts.routers) {
      if (lost.has((bound.agents[router.agent] as BoundAgent).id)) continue;
      const agent = boundName((bound.agents[router.agent] as BoundAgent).id);
      const decl = (i: number): EdgeDecl => bound.edgeDecl[router.edges[i] as number] as EdgeDecl;
      router.findings.unreachable.forEach((why, i) => {
        if (why === undefined) return;
        const edge = decl(i);
        const range = edge.guard?.range ?? edge.range;
        const name = describeEdge(edge);
        switch (why.reason) {
          case "never": {
            const e = router.edges[i] as number;
            const agentGate = (bound.agents[router.agent] as BoundAgent).gate === true;
            const status = bound.edgeGuard[e]?.conditions.find((c) => c.subject === "status");
            // The gate, not the conditions, rules it out: nothing waiting for review leaves a gate.
            const awaitsReview = status !== undefined && status.subject === "status" && status.values.every((v) => v === AWAITING_REVIEW);
            if (awaitsReview && (agentGate || bound.edgeGate[e] === 1)) {
              const gate = agentGate ? `the approval gate ${agent}` : "an edge marked gate";
              report({ range, message: `the guard of ${name} matches no envelope: it asks for status ${AWAITING_REVIEW}, which never leaves ${gate}; what waits for review stays there until approved, so route it before the gate or remove the edge` });
            } else {
              report({ range, message: `the guard of ${name} matches no envelope: no state satisfies all its conditions; fix the conditions or remove the edge` });
            }
            break;
          }
          case "shadowed": {
            const earlier = why.by.map((j) => describeEdge(decl(j)));
            const witness = router.coverage.states.find((_, s) => (router.coverage.matches[s] as readonly number[]).includes(i));
            report({
              range,
              message:
                `${name} is never taken: every envelope its guard matches takes ${earlier.length === 1 ? "the earlier route" : "earlier routes"} ${earlier.join(", ")} first` +
                `${witness === undefined ? "" : ` (e.g. ${describeState(witness, router.coverage.domain)})`}; routes are tried in order, so narrow the earlier guard or move this edge before it`,
              related: why.by.map((j) => ({ message: `earlier route ${describeEdge(decl(j))}`, range: decl(j).guard?.range ?? decl(j).range })),
            });
            break;
          }
          case "covered":
            report({ range, message: `${name} is never taken: the other guarded edges out of ${agent} already cover every case; remove 'otherwise' or the edge` });
            break;
          case "second-otherwise":
            report({
              range,
              message: `${name} is a second 'otherwise' out of ${agent}: only the first, ${describeEdge(decl(why.by))}, is ever taken; keep one`,
              related: [{ message: `first otherwise ${describeEdge(decl(why.by))}`, range: decl(why.by).guard?.range ?? decl(why.by).range }],
            });
            break;
        }
      });
    }
  },
});
