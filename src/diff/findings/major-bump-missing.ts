import { findingMeta } from "../rule.js";

/**
 * `major-bump-missing` (breaking): under `--fail-on missing-version-bump`, an agent's contract
 * broke but its declared major did not move. Reported by `version-policy.ts`, not by a check.
 */
export const majorBumpMissing = findingMeta({
  id: "major-bump-missing",
  class: "breaking",
  description: "A breaking change to an agent's contract without a new major version for the agent.",
  effect: "Producers keep claiming a version whose contract no longer holds; bump the agent's major so they are refused cleanly and the old agent can be kept running.",
});
