/**
 * `seam compile <file> --out <dir>` (docs/cli.md): checks the file and, when it
 * has no errors, writes each graph's envelope schema, per-edge schemas, validator module with
 * its `.d.ts`, and pictures into `<dir>`, byte-identical on a rerun.
 *
 * Exit codes: 0 written (warnings are printed on stderr), 1 the file has errors (printed like
 * `seam check` does, nothing written), 2 the input cannot be read or the output cannot be
 * written (one line on stderr: `cannot create the output folder: ...` or `cannot be written:
 * ...`). A folder this run created is removed again when nothing could be written into it.
 */
import { join } from "node:path";
import { isFinding } from "../../core/diagnostic.js";
import { checkGraphFile, printDiagnosticsOnStderr } from "../check-graph-file.js";
import { emitCompileOutput, type CompileTarget } from "../../emit/compile-output.js";
import { printablePath } from "../format/display-path.js";
import { escapeUntrusted } from "../../core/untrusted-text.js";
import { describeFsError } from "../fs-errors.js";
import type { CliIo } from "../io.js";
import { makeOutputFolder, removeFolders } from "../make-output-folder.js";
import { reportProblem } from "../report-problem.js";
import { writeReplacing } from "../write-replacing.js";

/** Options of {@link compileCommand}, as parsed from the command line. */
export interface CompileOptions {
  /** The `.seam` file, relative to `io.cwd` or absolute. */
  readonly file: string;
  /** The output folder (created when missing), relative to `io.cwd` or absolute. */
  readonly out: string;
  /** The validator modules to write: `js` (the default), `python`, or both. */
  readonly targets?: readonly CompileTarget[];
}

/** Runs `seam compile`; returns the exit code (0, 1 or 2). Prints each written path on stdout. */
export async function compileCommand(options: CompileOptions, io: CliIo): Promise<number> {
  const result = await checkGraphFile(options.file, io);
  if (result === undefined) return 2;
  const errors = result.diagnostics.filter((d) => d.severity === "error" && isFinding(d)).length;
  if (result.diagnostics.length > 0) await printDiagnosticsOnStderr(result.diagnostics, io);
  if (errors > 0) {
    io.stderr(`seam: ${escapeUntrusted(options.file)}: not compiled: ${errors} error${errors === 1 ? "" : "s"} (fix ${errors === 1 ? "it" : "them"}, then compile again)\n`);
    return 1;
  }
  if (result.graphs.length === 0) {
    reportProblem(io, { path: options.file, problem: "holds no graph", hint: "declare one with graph NAME { ... }" });
    return 2;
  }
  const files = emitCompileOutput(result.graphs, options.targets);
  const made = await makeOutputFolder(options.out, io.cwd);
  if (!made.ok) {
    reportProblem(io, { path: options.out, problem: `cannot create the output folder: ${made.reason}`, hint: "choose another --out folder" });
    return 2;
  }
  let written = 0;
  for (const file of files) {
    const target = join(made.folder, file.path);
    try {
      await writeReplacing(target, file.content);
    } catch (error) {
      reportProblem(io, { path: printablePath(target, io.cwd), ...describeFsError(error, "write") });
      // Folders this run made and left empty would be litter; files already written stay.
      if (written === 0) await removeFolders(made.created);
      return 2;
    }
    written++;
    io.stdout(`${printablePath(target, io.cwd)}\n`);
  }
  return 0;
}
