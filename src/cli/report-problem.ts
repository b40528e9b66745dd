/**
 * The one-line input error every command prints on stderr:
 * `seam: <path>: <what is wrong> (<what to do>)`.
 */
import type { PathProblem } from "./find-seam-files.js";
import type { CliIo } from "./io.js";
import { escapeUntrusted } from "../core/untrusted-text.js";

/**
 * Writes `problem` to `io.stderr` as one line. The path (a file name, a git ref) and the problem
 * (which may quote Node's error, naming the path again) are escaped: a name holding ESC or a
 * line break must not drive the terminal nor forge a second line.
 */
export function reportProblem(io: CliIo, problem: PathProblem): void {
  io.stderr(`seam: ${escapeUntrusted(problem.path)}: ${escapeUntrusted(problem.problem)} (${escapeUntrusted(problem.hint)})\n`);
}
