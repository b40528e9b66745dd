/**
 * Every `seam diff` finding module, in the order they run, and the catalogue of finding metadata
 * used by SARIF and the docs (`docs/diff/`). Output is sorted afterwards, so the order here only
 * fixes the catalogue's.
 */
import { branchAdded } from "./branch-added.js";
import { branchRemoved } from "./branch-removed.js";
import { joinPolicyChanged } from "./join-policy-changed.js";
import { joinWaitChanged } from "./join-wait-changed.js";
import type { FindingMeta } from "../finding.js";
import type { DiffRule } from "../rule.js";
import { agentAdded } from "./agent-added.js";
import { agentMajorChanged } from "./agent-major-changed.js";
import { agentMinorRaised } from "./agent-minor-raised.js";
import { agentRemoved } from "./agent-removed.js";
import { agentVersionChanged } from "./agent-version-changed.js";
import { agentVersionLowered } from "./agent-version-lowered.js";
import { edgeAdded } from "./edge-added.js";
import { edgeEnforced } from "./edge-enforced.js";
import { edgeKindChanged } from "./edge-kind-changed.js";
import { edgeObserved } from "./edge-observed.js";
import { edgeRemoved } from "./edge-removed.js";
import { entryAdded } from "./entry-added.js";
import { entryRemoved } from "./entry-removed.js";
import { envelopeVersionChanged } from "./envelope-version-changed.js";
import { envelopeVersionLowered } from "./envelope-version-lowered.js";
import { envelopeVersionRaised } from "./envelope-version-raised.js";
import { graphAdded } from "./graph-added.js";
import { graphRemoved } from "./graph-removed.js";
import { hopLimitLowered } from "./hop-limit-lowered.js";
import { hopLimitRaised } from "./hop-limit-raised.js";
import { loopSignatureChanged } from "./loop-signature-changed.js";
import { majorBumpMissing } from "./major-bump-missing.js";
import { maxRoundsLowered } from "./max-rounds-lowered.js";
import { maxRoundsRaised } from "./max-rounds-raised.js";
import { minorBumpMissing } from "./minor-bump-missing.js";
import { minConfidenceLowered } from "./min-confidence-lowered.js";
import { minConfidenceRaised } from "./min-confidence-raised.js";
import { repairsLowered } from "./repairs-lowered.js";
import { repairsRaised } from "./repairs-raised.js";
import { gateAdded } from "./gate-added.js";
import { guardNarrowed } from "./guard-narrowed.js";
import { guardWidened } from "./guard-widened.js";
import { gateRemoved } from "./gate-removed.js";
import { onHopLimitChanged } from "./on-hop-limit-changed.js";
import { requiredFieldAdded } from "./required-field-added.js";
import { requiredFieldRemoved } from "./required-field-removed.js";
import { requiredFieldReplaced } from "./required-field-replaced.js";
import { roleChanged } from "./role-changed.js";
import { terminalAdded } from "./terminal-added.js";
import { terminalOutcomeChanged } from "./terminal-outcome-changed.js";
import { terminalRemoved } from "./terminal-removed.js";

/** The finding modules. */
export const diffRules: readonly DiffRule[] = [
  graphRemoved,
  graphAdded,
  agentRemoved,
  agentAdded,
  roleChanged,
  agentMajorChanged,
  agentMinorRaised,
  agentVersionLowered,
  agentVersionChanged,
  terminalRemoved,
  terminalAdded,
  terminalOutcomeChanged,
  entryRemoved,
  entryAdded,
  edgeRemoved,
  edgeAdded,
  edgeKindChanged,
  requiredFieldAdded,
  requiredFieldRemoved,
  requiredFieldReplaced,
  maxRoundsLowered,
  maxRoundsRaised,
  repairsLowered,
  repairsRaised,
  minConfidenceRaised,
  minConfidenceLowered,
  gateAdded,
  gateRemoved,
  guardNarrowed,
  guardWidened,
  branchRemoved,
  branchAdded,
  joinWaitChanged,
  joinPolicyChanged,
  edgeEnforced,
  edgeObserved,
  hopLimitLowered,
  hopLimitRaised,
  onHopLimitChanged,
  loopSignatureChanged,
  envelopeVersionChanged,
  envelopeVersionRaised,
  envelopeVersionLowered,
];

/** The ids the version policy reports (`--fail-on missing-version-bump`). */
export const policyFindings: readonly FindingMeta[] = [majorBumpMissing, minorBumpMissing];

/** Every finding id `seam diff` can report, checks first, then the version policy's. */
export const findingCatalog: readonly FindingMeta[] = [...diffRules.map((rule) => rule.meta), ...policyFindings];

/** Findings about an agent's declared version: the announcement of a change, not a change of contract. */
export const VERSION_FINDINGS: ReadonlySet<string> = new Set([
  agentMajorChanged.meta.id,
  agentMinorRaised.meta.id,
  agentVersionLowered.meta.id,
  agentVersionChanged.meta.id,
]);
