import type { EdgeDecl } from "../../parser/ast.js";
import type { BoundAgent } from "../bind.js";
import { boundName } from "../../core/diagnostic.js";
import { MAX_GUARD_STEPS } from "../guards.js";
import { defineRule } from "../rule.js";

const number = (n: number): string => n.toLocaleString("en-US");

/**
 * `guards-unchecked` (warning): checking the guarded edges out of an agent takes more steps than
 * the exact check makes ({@link MAX_GUARD_STEPS}: states tried against guards, and pairs of guards
 * that match one state, see `guards.ts`), so
 * `guard-gap`, `guard-overlap` and `guard-unreachable` are not checked for them. A counted bound,
 * so every machine gives the same finding.
 */
export const guardsUncheckedRule = defineRule({
  meta: {
    id: "guards-unchecked",
    severity: "warning",
    description: "The guarded edges out of an agent are too many to check for gaps, overlaps and unreachable guards.",
  },
  check({ model, report }) {
    const { bound, facts } = model;
    for (const router of facts.uncheckedRouters) {
      const agent = boundName((bound.agents[router.agent] as BoundAgent).id);
      const first = bound.edgeDecl[router.edges[0] as number] as EdgeDecl;
      report({
        range: first.guard?.range ?? first.range,
        message:
          `the ${number(router.edges.length)} guarded edges out of ${agent} need more than the ${number(MAX_GUARD_STEPS)} steps the exact check makes ` +
          `(${number(router.states)} cases, each tried against every guard, and each pair of guards that match one case): gaps, overlaps and unreachable guards are not checked for them; ` +
          `route in two steps (on status or allowed_next_step first, then on confidence) so that each agent's guards test fewer values`,
      });
    }
  },
});
