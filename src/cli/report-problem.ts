/**
 * The one-line input error every command prints on stderr:
 * `seam: <path>: <what is wrong> (<what to do>)`.
 */
import type { PathProblem } from "./find-seam-files.js";
import type { CliIo } from "./io.js";

/** Writes `problem` to `io.stderr` as one line. */
export function reportProblem(io: CliIo, problem: PathProblem): void {
  io.stderr(`seam: ${problem.path}: ${problem.problem} (${problem.hint})\n`);
}
