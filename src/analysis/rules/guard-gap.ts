import type { EdgeDecl } from "../../parser/ast.js";
import type { BoundAgent } from "../bind.js";
import { describeEdge, MAX_RELATED } from "../describe.js";
import { describeGaps } from "../guards.js";
import { defineRule } from "../rule.js";
import { agentsWithLostRoutes } from "../lost-routes.js";
import { boundName } from "../../core/diagnostic.js";

/** How many uncovered cases a message lists before it counts the rest. */
const MAX_CASES = 6;

/**
 * `guard-gap` (error): the guarded edges out of an agent leave some envelope state with no route
 * and no `otherwise` names one. The message lists the uncovered cases, merged into readable
 * ranges (`status blocked, waiting_review, failed`; `status ready and confidence < 0.8`).
 */
export const guardGapRule = defineRule({
  // A router is judged whole: a guarded edge lost to a syntax error changes what the others cover and shadow.
  wholeGraph: true,
  meta: {
    id: "guard-gap",
    severity: "error",
    description: "The guarded edges out of an agent leave a case without a route, and no otherwise edge names one.",
  },
  check({ model, report }) {
    const { bound, facts } = model;
    const lost = agentsWithLostRoutes(bound);
    for (const router of facts.routers) {
      if (lost.has((bound.agents[router.agent] as BoundAgent).id)) continue;
      const { gaps } = router.findings;
      if (gaps.length === 0) continue;
      const agent = boundName((bound.agents[router.agent] as BoundAgent).id);
      const cases = describeGaps(gaps, router.coverage.domain);
      const listed = cases.slice(0, MAX_CASES).join("; ");
      const more = cases.length > MAX_CASES ? `; and ${cases.length - MAX_CASES} more` : "";
      const decls = router.edges.map((e) => bound.edgeDecl[e] as EdgeDecl);
      const last = decls[decls.length - 1] as EdgeDecl;
      report({
        range: last.guard?.range ?? last.range,
        message:
          `the guarded edges out of ${agent} leave no route for ${listed}${more}: an envelope in that state has nowhere to go; ` +
          `add routes for what is missing, or an 'otherwise' edge`,
        related: decls.slice(0, MAX_RELATED).map((d) => ({ message: `route ${describeEdge(d)}`, range: d.guard?.range ?? d.range })),
      });
    }
  },
});
