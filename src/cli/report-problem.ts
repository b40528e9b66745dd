/**
 * The one-line input error every command prints on stderr:
 * `seam: <path>: <what is wrong> (<what to do>)`.
 */
import type { PathProblem } from "./find-seam-files.js";
import type { CliIo } from "./io.js";
import { escapeUntrusted } from "../core/untrusted-text.js";

/** The most code points of each part of an error line (a path is at most 4,096 bytes on Linux, most far fewer). */
export const PROBLEM_PART_LIMIT = 1000;

/**
 * Writes `problem` to `io.stderr` as one line. The path (a file name, a git ref) and the problem
 * (which may quote Node's error, naming the path again) are escaped: a name holding ESC or a
 * line break must not drive the terminal nor forge a second line; and each part is cut at
 * {@link PROBLEM_PART_LIMIT} code points, so an argument of any length prints a bounded line.
 */
export function reportProblem(io: CliIo, problem: PathProblem): void {
  const part = (text: string): string => escapeUntrusted(text, PROBLEM_PART_LIMIT);
  io.stderr(`seam: ${part(problem.path)}: ${part(problem.problem)} (${part(problem.hint)})\n`);
}
