/**
 * The shape of a `seam diff` finding module (as `src/analysis/rule.ts` is for `seam check`): each
 * module has one finding id, its class and a check that reads the two versions and reports. A
 * module reads either the two files (graphs added or removed) or one pair of same-named graphs.
 */
import { createDiagnostic, type Severity } from "../core/diagnostic.js";
import type { CheckedGraph } from "../analysis/model.js";
import { CLASS_SEVERITY, type ChangeClass, type Finding, type FindingInit, type FindingMeta } from "./finding.js";
import type { GraphPair, GraphSide } from "./graph-pair.js";
import type { SourceFile } from "../core/source-file.js";

/** One version of a file: its graphs, by name. */
export interface FileSide {
  readonly file: SourceFile;
  readonly graphs: readonly CheckedGraph[];
}

/** What a graph-scoped module reads. */
export interface GraphFindingContext {
  readonly pair: GraphPair;
  /** The obligations of a required-path set under the old or new graph (`contract-fields.ts`). */
  readonly oldFields: (require: readonly string[]) => readonly string[];
  readonly newFields: (require: readonly string[]) => readonly string[];
  report(init: FindingInit): void;
}

/** What a file-scoped module reads. */
export interface FileFindingContext {
  readonly old: FileSide;
  readonly new: FileSide;
  /** Old graphs with no graph of that name in the new file. */
  readonly removedGraphs: readonly GraphSide[];
  /** New graphs with no graph of that name in the old file. */
  readonly addedGraphs: readonly GraphSide[];
  report(init: FindingInit & { readonly graph: string }): void;
}

/** A finding module. */
export type DiffRule =
  | { readonly meta: FindingMeta; readonly scope: "graph"; check(context: GraphFindingContext): void }
  | { readonly meta: FindingMeta; readonly scope: "file"; check(context: FileFindingContext): void };

/** Metadata as a module writes it; the severity follows the class unless given. */
export interface FindingMetaInit {
  readonly id: string;
  readonly class: ChangeClass;
  readonly description: string;
  readonly effect: string;
  readonly severity?: Severity;
}

/**
 * Completes a module's metadata.
 * @throws Error when the id is not kebab-case (a bug in Seam, caught by any test that loads it)
 */
export function findingMeta(init: FindingMetaInit): FindingMeta {
  if (!/^[a-z]+(-[a-z]+)*$/.test(init.id)) throw new Error(`internal: finding id '${init.id}' is not kebab-case`);
  return Object.freeze({ ...init, severity: init.severity ?? CLASS_SEVERITY[init.class] });
}

/** Declares a graph-scoped module. */
export function graphFinding(meta: FindingMetaInit, check: (context: GraphFindingContext) => void): DiffRule {
  return Object.freeze({ meta: findingMeta(meta), scope: "graph", check });
}

/** Declares a file-scoped module. */
export function fileFinding(meta: FindingMetaInit, check: (context: FileFindingContext) => void): DiffRule {
  return Object.freeze({ meta: findingMeta(meta), scope: "file", check });
}

/** The one place findings are made (through `createDiagnostic`, like every diagnostic). */
export function createFinding(meta: FindingMeta, graph: string, init: FindingInit): Finding {
  const diagnostic = createDiagnostic(meta, {
    file: init.at.file,
    range: init.at.range,
    message: init.message,
    ...(init.was ? { related: [{ message: "as declared in the old version", file: init.was.file, range: init.was.range }] } : {}),
  });
  return {
    ...diagnostic,
    class: meta.class,
    graph,
    ...(init.owner === undefined ? {} : { owner: init.owner }),
    subject: init.subject,
  };
}
