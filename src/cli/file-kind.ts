/**
 * What a path that is not a regular file is, in the words of Seam's one-line problems, so that
 * every command that refuses one (a source file, an envelope, a log) names it the same way.
 */
import type { Stats } from "node:fs";

/**
 * `is a device, not a regular file` and the like, for a file that is neither a folder nor a
 * regular file: a FIFO, a socket, a character or block device (`/dev/zero`, a terminal).
 *
 * @param info - the file's `stat` (or `fstat`) as Node gives it
 */
export function notRegularProblem(info: Stats): string {
  return `is ${describeNonRegular(info)}, not a regular file`;
}

function describeNonRegular(info: Stats): string {
  if (info.isFIFO()) return "a named pipe (FIFO)";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  return "a special file";
}
