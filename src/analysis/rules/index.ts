/**
 * Every analysis rule, in the order they run, and the catalogue of rule metadata (syntax first)
 * used by `--help`, SARIF and the docs (docs/rules/ has a page per id).
 */
import type { RuleMeta } from "../../core/diagnostic.js";
import { syntaxRule } from "../../parser/syntax-rule.js";
import { fileTooLargeRule, internalErrorRule, type Rule } from "../rule.js";
import { confusableNameRule } from "./confusable-name.js";
import { duplicateAgentRule } from "./duplicate-agent.js";
import { duplicateEdgeRule } from "./duplicate-edge.js";
import { duplicateGraphRule } from "./duplicate-graph.js";
import { duplicateSettingRule } from "./duplicate-setting.js";
import { duplicateTerminalRule } from "./duplicate-terminal.js";
import { importGuessRule } from "./import-guess.js";
import { hopLimitApproximateRule } from "./hop-limit-approximate.js";
import { hopLimitTooLowRule } from "./hop-limit-too-low.js";
import { hopLimitUnboundedRule } from "./hop-limit-unbounded.js";
import { invalidAgentVersionRule } from "./invalid-agent-version.js";
import { maxRoundsZeroRule } from "./max-rounds-zero.js";
import { guardGapRule } from "./guard-gap.js";
import { guardsUncheckedRule } from "./guards-unchecked.js";
import { gateNeedsApprovalEnvelopeRule } from "./gate-needs-approval-envelope.js";
import { ungatedEffectRule } from "./ungated-effect.js";
import { guardOverlapRule } from "./guard-overlap.js";
import { guardUnreachableRule } from "./guard-unreachable.js";
import { branchDanglingRule } from "./branch-dangling.js";
import { fanOutInvalidRule } from "./fan-out-invalid.js";
import { fanOutNeedsBranchEnvelopeRule } from "./fan-out-needs-branch-envelope.js";
import { fanOutNestedRule } from "./fan-out-nested.js";
import { fanOutUnjoinedRule } from "./fan-out-unjoined.js";
import { joinDeadlockRule } from "./join-deadlock.js";
import { joinInvalidRule } from "./join-invalid.js";
import { joinNeverFiresRule } from "./join-never-fires.js";
import { listedTwiceRule } from "./listed-twice.js";
import { missingEntryRule } from "./missing-entry.js";
import { mixedScriptNameRule } from "./mixed-script-name.js";
import { repairsExcessiveRule } from "./repairs-excessive.js";
import { missingReturnRule } from "./missing-return.js";
import { noTerminalPathRule } from "./no-terminal-path.js";
import { roleMismatchRule } from "./role-mismatch.js";
import { selfHandoffRule } from "./self-handoff.js";
import { suppressionReasonRule, suppressionUnknownRule, unusedSuppressionRule } from "./suppression-rules.js";
import { unboundedCycleRule } from "./unbounded-cycle.js";
import { unknownAgentRule } from "./unknown-agent.js";
import { unknownFieldRule } from "./unknown-field.js";
import { unreachableAgentRule } from "./unreachable-agent.js";
import { unsupportedEnvelopeRule } from "./unsupported-envelope.js";

/** The analysis rules (not `syntax`, which the parser reports). */
export const rules: readonly Rule[] = [
  unknownAgentRule,
  duplicateGraphRule,
  duplicateAgentRule,
  confusableNameRule,
  mixedScriptNameRule,
  duplicateEdgeRule,
  duplicateTerminalRule,
  duplicateSettingRule,
  listedTwiceRule,
  missingEntryRule,
  roleMismatchRule,
  missingReturnRule,
  selfHandoffRule,
  maxRoundsZeroRule,
  repairsExcessiveRule,
  invalidAgentVersionRule,
  unknownFieldRule,
  unsupportedEnvelopeRule,
  unreachableAgentRule,
  noTerminalPathRule,
  unboundedCycleRule,
  guardGapRule,
  guardsUncheckedRule,
  guardUnreachableRule,
  guardOverlapRule,
  gateNeedsApprovalEnvelopeRule,
  ungatedEffectRule,
  fanOutInvalidRule,
  fanOutNeedsBranchEnvelopeRule,
  fanOutNestedRule,
  joinInvalidRule,
  joinNeverFiresRule,
  joinDeadlockRule,
  branchDanglingRule,
  fanOutUnjoinedRule,
  hopLimitTooLowRule,
  hopLimitUnboundedRule,
  hopLimitApproximateRule,
  importGuessRule,
];

/**
 * Metadata of every diagnostic id Seam can report: `syntax`, the rules, the suppression-comment
 * rules, then `file-too-large` (the language server's) and `internal-error`.
 */
export const ruleCatalog: readonly RuleMeta[] = [
  syntaxRule,
  ...rules.map((r) => r.meta),
  suppressionReasonRule,
  suppressionUnknownRule,
  unusedSuppressionRule,
  fileTooLargeRule,
  internalErrorRule,
];
