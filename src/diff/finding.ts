/**
 * What `seam diff` reports: findings are diagnostics (so every `seam check` output format prints
 * them) plus the change's compatibility class, the graph, the agent whose contract changed and
 * the thing the finding is about.
 *
 * Classes follow how each side of a handoff sees a change. On an edge A -> B, A produces the
 * envelope and B accepts it against a closed JSON Schema; when A and B deploy apart, the change is
 * - `breaking`: some envelope is refused whichever side deploys first (or a task in flight is),
 *   like the ERR level of oasdiff and every rule of buf's WIRE_JSON category;
 * - `sender-first`: safe once the producing side is deployed before the receiving side (the
 *   schema registry's FORWARD compatibility: new producers, old consumers);
 * - `receiver-first`: safe once the receiving side is deployed first (BACKWARD compatibility:
 *   new consumers read what old producers write);
 * - `safe`: no envelope is refused in any order (FULL compatibility).
 */
import type { Diagnostic, RuleMeta, Severity } from "../core/diagnostic.js";
import type { Range, SourceFile } from "../core/source-file.js";

/** How a change behaves when the agents on either side of a handoff deploy on different days. */
export type ChangeClass = "breaking" | "sender-first" | "receiver-first" | "safe";

/** Every class, most severe first (the order of the docs table). */
export const CHANGE_CLASSES: readonly ChangeClass[] = ["breaking", "sender-first", "receiver-first", "safe"];

/** The severity each class is printed with: breaking is an error (exit 1), an ordered deploy a warning. */
export const CLASS_SEVERITY: Readonly<Record<ChangeClass, Severity>> = {
  breaking: "error",
  "sender-first": "warning",
  "receiver-first": "warning",
  safe: "info",
};

/** What a finding is about; every name is one that exists in the graph version given by `in`. */
export interface FindingSubject {
  /** The graph version in which the subject exists: `old` for what was removed, else `new`. */
  readonly in: "old" | "new";
  readonly agent?: string;
  readonly edge?: { readonly kind: string; readonly from: string; readonly to: string };
  readonly terminal?: string;
  /** A field path in Seam's syntax (`goal.out_of_scope`, `decisions[]` for "at least one"). */
  readonly field?: string;
}

/** One finding of `seam diff`: a diagnostic in the new file (or the old one, if the new is gone). */
export interface Finding extends Diagnostic {
  readonly class: ChangeClass;
  /** The graph's name. */
  readonly graph: string;
  /**
   * The agent whose contract changed, whose `version` announces the change (the receiver of an
   * edge, the agent itself for agent changes); absent for graph-wide changes.
   */
  readonly owner?: string;
  readonly subject: FindingSubject;
}

/** The fixed description of one finding id: a rule whose class never varies. */
export interface FindingMeta extends RuleMeta {
  readonly class: ChangeClass;
  /** Who breaks and how, in a sentence, for the docs table. */
  readonly effect: string;
}

/** A location in one of the two files. */
export interface Place {
  readonly file: SourceFile;
  readonly range: Range;
}

/** What a finding module passes to `report`: the finding minus what its metadata fixes. */
export interface FindingInit {
  readonly at: Place;
  readonly message: string;
  readonly owner?: string;
  readonly subject: FindingSubject;
  /** Where the removed or previous thing was, in the old file. */
  readonly was?: Place;
}
