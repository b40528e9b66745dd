/**
 * File names for `seam compile` output. Graph names and agent ids are identifiers
 * (`[A-Za-z_][A-Za-z0-9_-]*`), but names built from them can still clash: on case-insensitive
 * file systems (`Billing` and `billing`), through hyphens (`a-b` + `delegate` + `c` against
 * `a` + ... ), or with device names Windows reserves (`con`, `nul`). Names are made safe, then
 * clashes are resolved by numbering in a fixed order, so reruns give the same names. A name over
 * 255 bytes is shortened by `fit-file-name.ts` (a prefix and a hash of the whole name).
 */
import type { CheckedGraph } from "../analysis/model.js";
import { fitFileStem } from "./fit-file-name.js";

/** The files written for one graph. */
export interface GraphFileNames {
  /** `<graph>.envelope.schema.json` */
  readonly envelope: string;
  /** `<graph>.<from>-<kind>-<to>.schema.json`, indexed like `CheckedGraph.edges`. */
  readonly edges: readonly string[];
  /** `<graph>.validators.mjs` */
  readonly module: string;
  /** `<graph>.validators.d.mts` */
  readonly declarations: string;
  /** `<graph>.mmd`: the Mermaid picture. */
  readonly mermaid: string;
  /** `<graph>.dot`: the Graphviz picture. */
  readonly dot: string;
}

const WINDOWS_DEVICES = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** Keeps `[A-Za-z0-9_-]`, replaces anything else by `_`, and steps around Windows device names. */
export function sanitizeFileStem(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]/g, "_") || "_";
  return WINDOWS_DEVICES.test(safe) ? `_${safe}` : safe;
}

function claim(taken: Set<string>, make: (suffix: string) => readonly string[]): readonly string[] {
  for (let n = 1; ; n++) {
    const names = make(n === 1 ? "" : `.${n}`);
    if (names.every((name) => !taken.has(name.toLowerCase()))) {
      for (const name of names) taken.add(name.toLowerCase());
      return names;
    }
  }
}

/**
 * Plans the output file names of the graphs of one file, in graph order and, within a graph,
 * envelope, edges (by index), the module and its declarations (which share one stem), then the
 * pictures.
 * Names are unique even when compared without regard to case.
 */
export function planFileNames(graphs: readonly CheckedGraph[]): GraphFileNames[] {
  const taken = new Set<string>();
  const stems = new Set<string>();
  return graphs.map((graph) => {
    const [stem] = claim(stems, (suffix) => [`${sanitizeFileStem(graph.name)}${suffix}`]) as [string];
    const fit = (name: string, extension: string): string => `${fitFileStem(name, extension)}${extension}`;
    const [envelope] = claim(taken, (suffix) => [fit(`${stem}.envelope${suffix}`, ".schema.json")]) as [string];
    const edges = graph.edges.map((edge) => {
      const edgeStem = `${sanitizeFileStem(edge.from)}-${edge.kind}-${sanitizeFileStem(edge.to)}`;
      return claim(taken, (suffix) => [fit(`${stem}.${edgeStem}${suffix}`, ".schema.json")])[0] as string;
    });
    const [module, declarations] = claim(taken, (suffix) => {
      // One stem for both, fitted to the longer extension: X.d.mts must describe X.mjs.
      const shared = fitFileStem(`${stem}.validators${suffix}`, ".d.mts");
      return [`${shared}.mjs`, `${shared}.d.mts`];
    }) as [string, string];
    const [mermaid] = claim(taken, (suffix) => [fit(`${stem}${suffix}`, ".mmd")]) as [string];
    const [dot] = claim(taken, (suffix) => [fit(`${stem}${suffix}`, ".dot")]) as [string];
    return { envelope, edges, module, declarations, mermaid, dot };
  });
}
