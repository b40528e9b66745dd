import { countOf } from "../describe.js";
import { MAX_FLOW_AGENTS, MAX_FLOW_EDGES, type HopApproximation } from "../hop-limits.js";
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
    description: "The longest bounded walk H is an upper bound, not exact, because the exact search ran out of its step budget or met a component too large for it.",
  },
  check({ model, report }) {
    const { graph, bound } = model;
    const { longestWalk, exact, declared, approximation } = graph.hopLimit;
    if (exact || longestWalk === undefined) return;
    const effect = declared === undefined ? `hop_limit auto assigns ${longestWalk + 1}, which is safe but may be more than needed` : `the check of hop_limit ${declared} against it may warn needlessly`;
    report({
      range: bound.hopLimit ? bound.hopLimit.value.range : bound.decl.name.range,
      message: `graph '${bound.name}': the longest walk allowed by max_rounds is at most ${countOf(longestWalk, "handoff")} (an upper bound: ${why(approximation)}); ${effect}. Declare hop_limit to choose the value yourself.`,
    });
  },
});

const number = (n: number): string => n.toLocaleString("en-US");

/** What was exceeded, in words. */
function why(approximation: HopApproximation | undefined): string {
  if (approximation === undefined) return "the exact search did not finish";
  if (approximation.kind === "steps") return `the exact search ran out of its budget of ${number(approximation.budget)} step${approximation.budget === 1 ? "" : "s"}`;
  return `a strongly connected component of ${countOf(approximation.agents, "agent")} and ${countOf(approximation.edges, "edge")} is beyond the exact flow search (at most ${MAX_FLOW_AGENTS} agents and ${MAX_FLOW_EDGES} edges) and has more round states than the memoised search may keep`;
}
