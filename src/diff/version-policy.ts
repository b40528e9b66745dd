/**
 * `--fail-on missing-version-bump`, as oasdiff's check of the same name does for an API's
 * `info.version`, but per agent: every agent owns the contract of the edges into it, and its
 * declared `version` is what producers claim (`accept()` refuses a claim by the caret rule of
 * `core/agent-version.ts`, which `version-step.ts` applies).
 * - A breaking change to an agent's contract is announced when the agent's major moved: its
 *   findings become warnings. Without a new major, `major-bump-missing` (an error) joins them.
 * - A compatible change (deploy-order or safe) needs a newer minor, or a version where there was
 *   none; without one, `minor-bump-missing` (a warning) is reported.
 * - The major move itself (`agent-major-changed`) is the announcement, so it becomes a warning.
 * Changes no version can announce (graph-wide ones, a removed agent or graph) are left as they are.
 */
import type { CheckedAgent } from "../analysis/model.js";
import type { Finding } from "./finding.js";
import { VERSION_FINDINGS } from "./findings/index.js";
import { majorBumpMissing } from "./findings/major-bump-missing.js";
import { agentMajorChanged } from "./findings/agent-major-changed.js";
import { minorBumpMissing } from "./findings/minor-bump-missing.js";
import { graphSide } from "./graph-pair.js";
import { versionPlace } from "./places.js";
import { quoteUntrusted } from "../core/untrusted-text.js";
import { createFinding, type FileSide } from "./rule.js";
import { sortDiagnostics } from "../core/diagnostic.js";
import { versionStep } from "./version-step.js";

/**
 * Applies the version policy to the findings of one file pair (from `diffFiles`).
 * @returns the findings with announced breaks as warnings, plus the bump findings, sorted
 */
export function applyVersionPolicy(findings: readonly Finding[], old: FileSide, next: FileSide): Finding[] {
  const byOwner = new Map<string, Finding[]>();
  for (const finding of findings) {
    if (finding.owner === undefined || VERSION_FINDINGS.has(finding.rule)) continue;
    const key = `${finding.graph}\0${finding.owner}`;
    const list = byOwner.get(key);
    if (list === undefined) byOwner.set(key, [finding]);
    else list.push(finding);
  }
  const announced = new Set<Finding>();
  const added: Finding[] = [];
  for (const [key, owned] of byOwner) {
    const [graph, id] = key.split("\0") as [string, string];
    const before = agentOf(old, graph, id);
    const newGraph = next.graphs.find((g) => g.name === graph);
    const after = newGraph?.agents.find((a) => a.id === id);
    // A new agent has no earlier contract to announce a change to.
    if (before === undefined || after === undefined || newGraph === undefined) continue;
    const step = versionStep(before, after);
    const breaking = owned.filter((f) => f.class === "breaking");
    const at = versionPlace(graphSide(next.file, newGraph), after);
    const ids = [...new Set(owned.map((f) => f.rule))].join(", ");
    if (breaking.length > 0) {
      if (step === "major") for (const f of breaking) announced.add(f);
      else {
        added.push(
          createFinding(majorBumpMissing, graph, {
            at,
            owner: id,
            message:
              `agent ${id}'s contract breaks (${[...new Set(breaking.map((f) => f.rule))].join(", ")}) but its major did not move ` +
              `(version ${after.version === undefined ? "not declared" : quoteUntrusted(after.version)}): bump the major and keep the old ${id} running until no task claims it`,
            subject: { in: "new", agent: id },
          }),
        );
      }
    } else if (step !== "major" && step !== "minor-raised" && step !== "declared") {
      added.push(
        createFinding(minorBumpMissing, graph, {
          at,
          owner: id,
          message: `agent ${id}'s contract changed (${ids}) but its version did not get a newer minor (version ${after.version === undefined ? "not declared" : quoteUntrusted(after.version)})`,
          subject: { in: "new", agent: id },
        }),
      );
    }
  }
  const out = findings.map((f) => {
    if (announced.has(f)) return { ...f, severity: "warning" as const, message: `${f.message} (announced by ${f.owner}'s new major)` };
    if (f.rule === agentMajorChanged.meta.id) return { ...f, severity: "warning" as const, message: `${f.message} (the announced break)` };
    return f;
  });
  return sortDiagnostics([...out, ...added]) as Finding[];
}

function agentOf(side: FileSide, graph: string, id: string): CheckedAgent | undefined {
  return side.graphs.find((g) => g.name === graph)?.agents.find((a) => a.id === id);
}
