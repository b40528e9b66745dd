/**
 * The first steps of every command that works from one `.seam` file (`compile`, `graph`,
 * `validate`): read it, check it, and show on stderr the findings that stop the command.
 */
import type { CheckResult } from "../analysis/model.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { createCliProgram } from "./disk-host.js";
import type { CliIo } from "./io.js";
import { reportProblem } from "./report-problem.js";

/**
 * Reads and checks the graph file at `path` (relative to `io.cwd` or absolute).
 *
 * @returns the check result, or `undefined` when the file cannot be read; that problem is
 *   already reported on stderr as one line, and the command should exit 2
 */
export async function checkGraphFile(path: string, io: CliIo): Promise<CheckResult | undefined> {
  const checked = await createCliProgram(io.cwd).checkPath(path);
  if (!checked.ok) {
    reportProblem(io, checked.problem);
    return undefined;
  }
  return checked.result;
}

/** Prints diagnostics of one file on stderr in the pretty format, without colour. */
export async function printDiagnosticsOnStderr(diagnostics: readonly Diagnostic[], io: CliIo): Promise<void> {
  const { formatPretty } = await import("./format/pretty.js");
  io.stderr(formatPretty(diagnostics, { cwd: io.cwd, color: false, fileCount: 1 }));
}
