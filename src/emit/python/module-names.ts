/**
 * File names of the Python modules `seam compile --target python` writes: `<graph>_validators.py`,
 * an importable module name (hyphens in graph names become `_`), unique even when compared
 * without regard to case; a clash gets `_2`, `_3`... in graph order, so reruns give the same names.
 */
import type { CheckedGraph } from "../../analysis/model.js";

/**
 * One file name per graph, in graph order.
 *
 * @param graphs - the checked graphs of one file
 */
export function planPythonModuleNames(graphs: readonly CheckedGraph[]): string[] {
  const taken = new Set<string>();
  return graphs.map((graph) => {
    const stem = `${graph.name.replace(/[^A-Za-z0-9_]/g, "_")}_validators`;
    for (let n = 1; ; n++) {
      const name = n === 1 ? stem : `${stem}_${n}`;
      if (!taken.has(name.toLowerCase())) {
        taken.add(name.toLowerCase());
        return `${name}.py`;
      }
    }
  });
}
