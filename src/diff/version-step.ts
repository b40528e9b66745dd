/**
 * How an agent's declared `version` moved between two graphs, judged by the one rule `accept()`
 * applies to claimed versions (`checkClaimedVersion`, a caret range): an envelope built against
 * the old graph claims the old version and meets the new agent, one built against the new graph
 * claims the new version and may meet the old agent. The step is named by which of the two
 * claims the rule refuses; nothing about versions is decided here.
 */
import type { CheckedAgent } from "../analysis/model.js";
import { checkClaimedVersion, parseAgentVersion } from "../core/agent-version.js";

/**
 * - `major`: the old claim is outside the new version's compatibility key (another major, or
 *   another minor under 0.x): refused both ways.
 * - `minor-raised`: the old claim still fits the new agent, the new claim asks the old agent for a
 *   newer minor (0.x: patch).
 * - `lowered`: the new agent refuses the old claim as too new.
 * - `compatible`: both claims fit both agents (a patch change, or only build metadata).
 * - `declared` / `dropped`: a version appeared or disappeared (absent claims are always allowed).
 * - `unchanged`: same text, or neither side has a version that parses.
 */
export type VersionStep = "major" | "minor-raised" | "lowered" | "compatible" | "declared" | "dropped" | "unchanged";

/** The step from `old`'s version to `next`'s (same agent id, two graph versions). */
export function versionStep(old: CheckedAgent, next: CheckedAgent): VersionStep {
  if (old.version === next.version) return "unchanged";
  const before = parseAgentVersion(old.version);
  const after = parseAgentVersion(next.version);
  if (before === undefined && after === undefined) return "unchanged";
  if (before === undefined) return "declared";
  if (after === undefined) return "dropped";
  const oldClaim = checkClaimedVersion(after, before.text);
  if (oldClaim?.kind === "other-major") return "major";
  if (oldClaim?.kind === "newer-minor") return "lowered";
  return checkClaimedVersion(before, after.text) === undefined ? "compatible" : "minor-raised";
}
