/** Writing files without following a symbolic link and without a half-written state. */
import { lstat, rename, rm, writeFile } from "node:fs/promises";

/** A file to write: its path and its whole text (UTF-8). */
export interface FileToWrite {
  readonly target: string;
  readonly content: string;
}

/** Why {@link writeAllReplacing} wrote nothing: the path it failed on and the file system's error. */
export interface WriteFailure {
  readonly target: string;
  readonly error: unknown;
}

/**
 * Writes `content` to `target` through a temporary file and a rename, so that a symbolic link
 * already standing at `target` is replaced rather than followed (a committed link in an output
 * folder must not let `seam compile` overwrite whatever it points to), and no reader ever sees a
 * half-written file.
 *
 * @throws the file system's error; the temporary file is removed first
 */
export async function writeReplacing(target: string, content: string): Promise<void> {
  const failure = await writeAllReplacing([{ target, content }]);
  if (failure !== undefined) throw failure.error;
}

/**
 * Writes every file of `files` as {@link writeReplacing} writes one, all or none: each content
 * goes to a temporary file beside its target first, and only once all are written are they
 * renamed into place. A folder standing at a target (which would refuse only its own rename) is
 * found before anything is written. So a failure (no space, no permission, a name too long, a
 * folder in the way) leaves every target as it was, never a mix of new and old files that were
 * compiled apart.
 *
 * @returns undefined when every file was written; else the target that failed and the error,
 *   after removing every temporary file. Only a rename failing after the others succeeded (the
 *   folder changed under the run) can leave the targets before it written.
 */
export async function writeAllReplacing(files: readonly FileToWrite[]): Promise<WriteFailure | undefined> {
  const temporaries: string[] = [];
  let target = "";
  try {
    for (const file of files) {
      target = file.target;
      if ((await lstat(target).catch(() => undefined))?.isDirectory() === true) {
        throw Object.assign(new Error(`EISDIR: is a folder, '${target}'`), { code: "EISDIR" });
      }
      const temporary = `${target}.${process.pid}.tmp`;
      await writeFile(temporary, file.content, { encoding: "utf8", flag: "wx" });
      temporaries.push(temporary);
    }
    for (let i = 0; i < files.length; i++) {
      target = (files[i] as FileToWrite).target;
      await rename(temporaries[i] as string, target);
    }
    return undefined;
  } catch (error) {
    await Promise.all(temporaries.map((temporary) => rm(temporary, { force: true })));
    return { target, error };
  }
}
