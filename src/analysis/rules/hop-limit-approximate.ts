import { countOf } from "../describe.js";
import { defineRule } from "../rule.js";

/**
 * `hop-limit-approximate` (info): H was too costly to compute exactly, so a sound upper bound
 * was used (see `src/analysis/hop-limits.ts`); `auto` then gives a limit that is safe but may be
 * larger than needed.
 */
export const hopLimitApproximateRule = defineRule({
  wholeGraph: true,
  meta: {
    id: "hop-limit-approximate",
    severity: "info",
    description: "The longest bounded walk H is an upper bound, not exact, because exact search would cost too much.",
  },
  check({ model, report }) {
    const { graph, bound } = model;
    const { longestWalk, exact, declared } = graph.hopLimit;
    if (exact || longestWalk === undefined) return;
    const effect = declared === undefined ? `hop_limit auto assigns ${longestWalk + 1}, which is safe but may be more than needed` : `the check of hop_limit ${declared} against it may warn needlessly`;
    report({
      range: bound.hopLimit ? bound.hopLimit.value.range : bound.decl.name.range,
      message: `graph '${bound.name}': the longest walk allowed by max_rounds is at most ${countOf(longestWalk, "handoff")} (an upper bound: an exact search over the rounds would cost too much); ${effect}. Declare hop_limit to choose the value yourself.`,
    });
  },
});
