/**
 * Everything `seam compile` writes for the graphs of one file, as
 * `{ path, content }` pairs: only the CLI writes files.
 */
import type { CheckedGraph } from "../analysis/model.js";
import { envelopeSchemaFor } from "../core/envelope-schema.js";
import { edgeSchema, graphSchemaBase } from "./edge-schemas.js";
import { planFileNames } from "./file-names.js";
import { dotPicture } from "./picture-dot.js";
import { mermaidPicture } from "./picture-mermaid.js";
import { planPythonModuleNames } from "./python/module-names.js";
import { emitPythonModule } from "./python/python-module.js";
import { emitPydanticModels } from "./python/pydantic-models.js";
import { emitValidatorModule } from "./validator-module.js";

/** The languages `seam compile` writes validator modules for. */
export const COMPILE_TARGETS = ["js", "python"] as const;

/** A language of {@link COMPILE_TARGETS}. */
export type CompileTarget = (typeof COMPILE_TARGETS)[number];

/** One output file; `path` is relative to the output folder. */
export interface EmittedFile {
  readonly path: string;
  readonly content: string;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * The files for each graph: `<graph>.envelope.schema.json`, one
 * `<graph>.<from>-<kind>-<to>.schema.json` per edge, `<graph>.validators.mjs` and
 * `<graph>.validators.d.mts`, and the pictures `<graph>.mmd` (Mermaid) and `<graph>.dot`
 * (Graphviz). Deterministic: the same graphs give byte-identical files, in a
 * fixed order. The `.mjs` module and its declarations are the `js` target; the `python` target
 * writes `<graph>_validators.py` instead or as well (and `<graph>_models.py` with `pydantic`).
 *
 * @param graphs - the checked graphs of one file, none with errors
 * @param targets - the validator modules to write (default: `js` only)
 * @param sourceText - the `.seam` text the graphs were checked from; the Python modules' headers
 *   name its SHA-256 (needed for the `python` target)
 * @param options - `pydantic`: with the `python` target, also `<graph>_models.py` (strict pydantic v2 models of the edges)
 * @throws TypeError when the `python` target is asked for without `sourceText`
 * @throws Error on a bug in Seam (a schema that does not compile, say)
 */
export function emitCompileOutput(
  graphs: readonly CheckedGraph[],
  targets: readonly CompileTarget[] = ["js"],
  sourceText?: string,
  options: { readonly pydantic?: boolean } = {},
): EmittedFile[] {
  const names = planFileNames(graphs);
  const pythonNames = targets.includes("python") ? planPythonModuleNames(graphs) : [];
  if (targets.includes("python") && sourceText === undefined) throw new TypeError("emitCompileOutput: the python target needs sourceText, the .seam text");
  const files: EmittedFile[] = [];
  graphs.forEach((graph, g) => {
    const planned = names[g];
    if (planned === undefined) throw new Error("internal: file names missing for a graph");
    files.push({ path: planned.envelope, content: json(envelopeSchemaFor(graph.envelope)) });
    graph.edges.forEach((edge, e) => {
      const path = planned.edges[e] as string;
      files.push({ path, content: json(edgeSchema(graph, edge, `${graphSchemaBase(graph.name)}${path.replace(/\.schema\.json$/, "")}`)) });
    });
    if (targets.includes("js")) {
      const validators = emitValidatorModule(graph);
      files.push({ path: planned.module, content: validators.module });
      files.push({ path: planned.declarations, content: validators.declarations });
    }
    if (targets.includes("python")) {
      const module = pythonNames[g] as string;
      files.push({ path: module, content: emitPythonModule(graph, { text: sourceText ?? "" }) });
      if (options.pydantic === true) files.push({ path: module.replace(/_validators(_\d+)?\.py$/, "_models$1.py"), content: emitPydanticModels(graph, { text: sourceText ?? "" }) });
    }
    files.push({ path: planned.mermaid, content: mermaidPicture(graph) });
    files.push({ path: planned.dot, content: dotPicture(graph) });
  });
  return files;
}

