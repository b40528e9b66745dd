/**
 * Which graph of a file a command works on (`seam graph`, `seam validate`): the one named by
 * `--name`, or the only one. A file with several graphs and no `--name` is a usage problem,
 * never a silent pick of the first.
 */
import type { CheckedGraph } from "../analysis/model.js";
import type { PathProblem } from "./find-seam-files.js";

/** The graph picked, or the one-line problem to report (exit 2). */
export type PickedGraph = { readonly ok: true; readonly graph: CheckedGraph } | { readonly ok: false; readonly problem: PathProblem };

/**
 * Picks the graph named `name`, or the only graph when `name` is absent.
 *
 * @param graphs - the file's checked graphs, in source order
 * @param path - the file as the user gave it, for the message
 * @param name - the `--name` option, if given
 */
export function pickGraph(graphs: readonly CheckedGraph[], path: string, name: string | undefined): PickedGraph {
  const names = graphs.map((g) => g.name).join(", ");
  if (name !== undefined) {
    const found = graphs.find((g) => g.name === name);
    return found !== undefined
      ? { ok: true, graph: found }
      : { ok: false, problem: { path, problem: `no graph named '${name}'`, hint: `the file holds: ${names || "no graph"}` } };
  }
  const only = graphs.length === 1 ? graphs[0] : undefined;
  if (only !== undefined) return { ok: true, graph: only };
  return {
    ok: false,
    problem:
      graphs.length === 0
        ? { path, problem: "holds no graph", hint: "declare one with graph NAME { ... }" }
        : { path, problem: `holds ${graphs.length} graphs (${names})`, hint: "pick one with --name <graph>" },
  };
}
