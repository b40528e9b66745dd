/**
 * `seam compile <file> --out <dir>` (docs/cli.md): checks the file and, when it
 * has no errors, writes each graph's envelope schema, per-edge schemas, validator module with
 * its `.d.ts`, and pictures into `<dir>`, byte-identical on a rerun; with `--vendor-runtime`, also
 * the Python runtime package `seam_handoff/`.
 *
 * Exit codes: 0 written (warnings are printed on stderr), 1 the file has errors (printed like
 * `seam check` does, nothing written), 2 the input cannot be read or the output cannot be
 * written (one line on stderr: `cannot create the output folder: ...` or `cannot be written:
 * ...`). A folder this run created is removed again when nothing could be written into it.
 */
import { lstat, mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { isFinding } from "../../core/diagnostic.js";
import { pythonRuntimeFiles } from "../../core/package-files.js";
import { checkGraphFile, printDiagnosticsOnStderr } from "../check-graph-file.js";
import { emitCompileOutput, type CompileTarget } from "../../emit/compile-output.js";
import { printablePath } from "../format/display-path.js";
import { escapeUntrusted } from "../../core/untrusted-text.js";
import { describeFsError } from "../fs-errors.js";
import type { CliIo } from "../io.js";
import { makeOutputFolder, removeFolders } from "../make-output-folder.js";
import { PROBLEM_PART_LIMIT, reportProblem } from "../report-problem.js";
import { writeAllReplacing, type WriteFailure } from "../write-replacing.js";

/** Options of {@link compileCommand}, as parsed from the command line. */
export interface CompileOptions {
  /** The `.seam` file, relative to `io.cwd` or absolute. */
  readonly file: string;
  /** The output folder (created when missing), relative to `io.cwd` or absolute. */
  readonly out: string;
  /** The validator modules to write: `js` (the default), `python`, or both. */
  readonly targets?: readonly CompileTarget[];
  /**
   * Also write the Python runtime package (`seam_handoff/`) into the folder, for services that
   * cannot install packages: the modules then import it from beside themselves. Needs `python`
   * in `targets`.
   */
  readonly vendorRuntime?: boolean;
  /** Also write `<graph>_models.py`, the edges' strict pydantic v2 models. Needs `python` in `targets`. */
  readonly pydantic?: boolean;
}

/**
 * Creates `folder` (one level, inside the output folder) unless it is already a real folder;
 * true when this call created it.
 *
 * @throws Error (code ENOTDIR) when a file or a symbolic link stands there: writing through a
 *   committed link must not reach whatever it points to
 */
async function makeSubfolder(folder: string): Promise<boolean> {
  const made = await mkdir(folder).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
      return false;
    },
  );
  const stat = await lstat(folder);
  if (!stat.isDirectory()) throw Object.assign(new Error(`${folder} is not a folder`), { code: "ENOTDIR" });
  return made;
}

/** Runs `seam compile`; returns the exit code (0, 1 or 2). Prints each written path on stdout. */
export async function compileCommand(options: CompileOptions, io: CliIo): Promise<number> {
  if (options.vendorRuntime === true && !(options.targets ?? []).includes("python")) {
    reportProblem(io, { path: options.file, problem: "--vendor-runtime writes the Python runtime, but no Python modules are asked for", hint: "add --target python" });
    return 2;
  }
  if (options.pydantic === true && !(options.targets ?? []).includes("python")) {
    reportProblem(io, { path: options.file, problem: "--pydantic writes Python models, but no Python modules are asked for", hint: "add --target python" });
    return 2;
  }
  const result = await checkGraphFile(options.file, io);
  if (result === undefined) return 2;
  const errors = result.diagnostics.filter((d) => d.severity === "error" && isFinding(d)).length;
  if (result.diagnostics.length > 0) await printDiagnosticsOnStderr(result.diagnostics, io);
  if (errors > 0) {
    io.stderr(`seam: ${escapeUntrusted(options.file, PROBLEM_PART_LIMIT)}: not compiled: ${errors} error${errors === 1 ? "" : "s"} (fix ${errors === 1 ? "it" : "them"}, then compile again)\n`);
    return 1;
  }
  if (result.graphs.length === 0) {
    reportProblem(io, { path: options.file, problem: "holds no graph", hint: "declare one with graph NAME { ... }" });
    return 2;
  }
  const files = [...emitCompileOutput(result.graphs, options.targets, result.file.text, { pydantic: options.pydantic === true }), ...(options.vendorRuntime === true ? pythonRuntimeFiles() : [])];
  const made = await makeOutputFolder(options.out, io.cwd);
  if (!made.ok) {
    reportProblem(io, { path: options.out, problem: `cannot create the output folder: ${made.reason}`, hint: "choose another --out folder" });
    return 2;
  }
  // The subfolders first (the vendored runtime's), then every file at once, all or none: a
  // failure leaves no mix of new files and old ones compiled from another graph.
  const created = [...made.created];
  const subfolders = new Set<string>();
  let failure: WriteFailure | undefined;
  for (const file of files) {
    const subfolder = join(made.folder, dirname(file.path));
    if (dirname(file.path) === "." || subfolders.has(subfolder)) continue;
    subfolders.add(subfolder);
    try {
      if (await makeSubfolder(subfolder)) created.push(subfolder);
    } catch (error) {
      failure = { target: join(made.folder, file.path), error, unrestored: [] };
      break;
    }
  }
  const targets = files.map((file) => ({ target: join(made.folder, file.path), content: file.content }));
  failure ??= await writeAllReplacing(targets);
  if (failure !== undefined) {
    reportProblem(io, { path: printablePath(failure.target, io.cwd), ...describeFsError(failure.error, "write") });
    for (const target of failure.unrestored) {
      reportProblem(io, { path: printablePath(target, io.cwd), problem: "was replaced before that failure, and its old version could not be put back", hint: "compile again once the failure is fixed" });
    }
    // Nothing stays written, so the folders this run made are empty: they would be litter.
    await removeFolders(created);
    return 2;
  }
  for (const { target } of targets) io.stdout(`${printablePath(target, io.cwd)}\n`);
  return 0;
}
