import type { EdgeDecl } from "../../parser/ast.js";
import type { BoundAgent } from "../bind.js";
import { describeEdge } from "../describe.js";
import { describeState } from "../guards.js";
import { defineRule } from "../rule.js";
import { agentsWithLostRoutes } from "../lost-routes.js";

/**
 * `guard-overlap` (warning): two guarded edges out of one agent both match some envelope, so
 * which of them is the route depends on their order in the file. The message gives one such
 * envelope state. Where the later edge is taken by earlier ones in every case, `guard-unreachable`
 * reports it instead.
 */
export const guardOverlapRule = defineRule({
  // A router is judged whole: a guarded edge lost to a syntax error changes what the others cover and shadow.
  wholeGraph: true,
  meta: {
    id: "guard-overlap",
    severity: "warning",
    description: "Two guarded edges out of one agent match the same envelope, so only their order decides the route.",
  },
  check({ model, report }) {
    const { bound, facts } = model;
    const lost = agentsWithLostRoutes(bound);
    for (const router of facts.routers) {
      if (lost.has((bound.agents[router.agent] as BoundAgent).id)) continue;
      const decl = (i: number): EdgeDecl => bound.edgeDecl[router.edges[i] as number] as EdgeDecl;
      for (const { first, second, state } of router.findings.overlaps) {
        const later = decl(second);
        const earlier = decl(first);
        report({
          range: later.guard?.range ?? later.range,
          message:
            `the guards of ${describeEdge(earlier)} and ${describeEdge(later)} both match ${describeState(state, router.coverage.domain)}: ` +
            `the earlier one is taken, so ${describeEdge(later)} only gets what is left; make the guards exclusive`,
          related: [{ message: `overlapping route ${describeEdge(earlier)}`, range: earlier.guard?.range ?? earlier.range }],
        });
      }
    }
  },
});
