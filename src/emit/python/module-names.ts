/**
 * File names of the Python modules `seam compile --target python` writes: `<graph>_validators.py`,
 * an importable module name (hyphens in graph names become `_`), unique even when compared
 * without regard to case; a clash gets `_2`, `_3`... in graph order, so reruns give the same names.
 * A graph name too long for a file name is shortened (`fit-file-name.ts`) before `_validators`,
 * which `<graph>_models.py` replaces, so both stay importable module names.
 */
import type { CheckedGraph } from "../../analysis/model.js";
import { fitFileStem } from "../fit-file-name.js";

/**
 * One file name per graph, in graph order.
 *
 * @param graphs - the checked graphs of one file
 */
export function planPythonModuleNames(graphs: readonly CheckedGraph[]): string[] {
  const taken = new Set<string>();
  return graphs.map((graph) => {
    const safe = graph.name.replace(/[^A-Za-z0-9_]/g, "_");
    for (let n = 1; ; n++) {
      const ending = n === 1 ? "_validators" : `_validators_${n}`;
      const name = `${fitFileStem(safe, `${ending}.py`)}${ending}`;
      if (!taken.has(name.toLowerCase())) {
        taken.add(name.toLowerCase());
        return `${name}.py`;
      }
    }
  });
}
