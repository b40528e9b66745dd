import { findingMeta } from "../rule.js";

/**
 * `minor-bump-missing` (warning): under `--fail-on missing-version-bump`, an agent's contract
 * changed compatibly but its declared minor did not move. Reported by `version-policy.ts`.
 */
export const minorBumpMissing = findingMeta({
  id: "minor-bump-missing",
  class: "safe",
  severity: "warning",
  description: "A compatible change to an agent's contract without a newer minor version for the agent.",
  effect: "Nothing is refused, but producers cannot tell the new contract from the old one; raise the agent's minor.",
});
