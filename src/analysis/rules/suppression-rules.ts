/**
 * The three rules about suppression comments (`// seam-disable-next-line <rule> -- <reason>`,
 * `// seam-disable <rule> -- <reason>`; see `suppressions.ts`), modelled on ESLint's
 * `--report-unused-disable-directives` and eslint-comments' `require-description` and
 * `no-unused-disable`. They judge comments, not a graph, so they have metadata only: the
 * suppression pass reports them. A suppression comment cannot silence them.
 */
import type { RuleMeta } from "../../core/diagnostic.js";

/** `suppression-reason` (warning): a suppression comment without `-- <reason>`. It still suppresses. */
export const suppressionReasonRule: RuleMeta = {
  id: "suppression-reason",
  severity: "warning",
  description: "A suppression comment gives no reason after '--', so a reader cannot tell why the finding is accepted.",
};

/** `suppression-unknown-rule` (warning): a suppression comment names no rule, or one Seam does not have. */
export const suppressionUnknownRule: RuleMeta = {
  id: "suppression-unknown-rule",
  severity: "warning",
  description: "A suppression comment names a rule id that does not exist or cannot be suppressed, or names none.",
};

/** `unused-suppression` (warning): a suppression comment whose rule reports nothing where it applies. */
export const unusedSuppressionRule: RuleMeta = {
  id: "unused-suppression",
  severity: "warning",
  description: "A suppression comment suppresses nothing (the finding was fixed or moved), so it only hides future findings.",
};
