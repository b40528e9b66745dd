/**
 * Opens a log to stream (`seam report`'s event logs, `seam validate`'s JSON Lines replays): a
 * regular file, or a named pipe, which is read until its writer closes it (`<(zcat log.gz)`). A
 * device is refused before any byte is read: `/dev/zero` and `/dev/urandom` never end, so a
 * streaming reader would read them for ever.
 */
import { open, type FileHandle } from "node:fs/promises";
import { notRegularProblem } from "./file-kind.js";
import { describeFsError, type FsProblem } from "./fs-errors.js";

/** Why a path cannot be read as a log, in the words of Seam's one-line problems. */
export class UnreadableLog extends Error {
  constructor(
    readonly problem: string,
    readonly hint: string,
  ) {
    super(problem);
  }
}

/**
 * Opens `path` for reading; the caller closes the handle.
 *
 * @param path - an absolute path, or one relative to the process's working folder
 * @throws the `node:fs` error when it cannot be opened, or {@link UnreadableLog} for a device
 *   (`is a device, not a regular file`)
 */
export async function openLog(path: string): Promise<FileHandle> {
  const handle = await open(path, "r");
  try {
    const info = await handle.stat();
    if (info.isCharacterDevice() || info.isBlockDevice()) throw new UnreadableLog(notRegularProblem(info), "pass a file or a named pipe");
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * The two halves of the one-line problem for an error thrown while a log was opened or read:
 * an {@link UnreadableLog}'s own, or {@link describeFsError}'s.
 */
export function describeLogError(error: unknown): FsProblem {
  return error instanceof UnreadableLog ? { problem: error.problem, hint: error.hint } : describeFsError(error);
}
