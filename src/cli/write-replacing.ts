/** Writing files without following a symbolic link and without a half-written state. */
import { randomBytes } from "node:crypto";
import { link, lstat, open, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/** A file to write: its path and its whole text (UTF-8). */
export interface FileToWrite {
  readonly target: string;
  readonly content: string;
  /**
   * For a file that replaces a user's own (`seam fmt`): the old file's mode and owner, which the
   * new one gets, and its text is flushed to the disk before the rename, so a crash leaves the
   * old file or the new one. Absent for generated output (the mode then follows the umask).
   */
  readonly keep?: FileToKeep;
}

/** What a replaced file keeps: its permission bits and owner (a `Stats` will do). */
export interface FileToKeep {
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
}

/**
 * Why {@link writeAllReplacing} failed: the path it failed on and the file system's error, and
 * the targets that stay replaced because putting their old version back failed too (almost
 * always none).
 */
export interface WriteFailure {
  readonly target: string;
  readonly error: unknown;
  readonly unrestored: readonly string[];
}

/** The one file-system call a test may replace, to fail a rename part-way or an undo (node:fs's by default). */
export interface RenameCall {
  readonly rename: (from: string, to: string) => Promise<void>;
}

/** One file on its way: its new text in `temporary`, the old file (if any) linked at `backup`. */
interface Staged {
  readonly target: string;
  readonly temporary: string;
  backup?: string;
}

/**
 * Writes `content` to `target` through a temporary file and a rename, so that a symbolic link
 * already standing at `target` is replaced rather than followed (a committed link in an output
 * folder must not let `seam compile` overwrite whatever it points to), and no reader ever sees a
 * half-written file.
 *
 * @param keep - the mode and owner to give the new file (see {@link FileToWrite.keep})
 * @throws the file system's error; the temporary file is removed first
 */
export async function writeReplacing(target: string, content: string, keep?: FileToKeep): Promise<void> {
  const failure = await writeAllReplacing([{ target, content, ...(keep === undefined ? {} : { keep }) }]);
  if (failure !== undefined) throw failure.error;
}

/**
 * Writes every file of `files` as {@link writeReplacing} writes one, all or none. Each content goes
 * to a temporary file beside its target first, and a folder standing at a target is found then.
 * Each target that exists is kept under a second name (a hard link, or where the file system has
 * none, the target moved aside), then the temporary files are renamed into place. When a rename
 * fails (a file that may not be replaced: another owner's in a sticky folder, an immutable one),
 * the targets already replaced get their old files back. So a failure leaves every target as it
 * was, never a mix of new files and old ones compiled from another graph.
 *
 * Temporary names are short, random and hidden (`.seam-<random>-<n>.tmp`): a target whose name is
 * as long as the file system allows can still be written, and a file left by a killed run never
 * blocks a later one.
 *
 * @param calls - how the temporary files are renamed into place (node:fs; tests fail one)
 * @returns undefined when every file was written; else the target that failed, the error and
 *   the targets that could not be restored, after removing every temporary file and backup
 */
export async function writeAllReplacing(files: readonly FileToWrite[], calls: RenameCall = { rename }): Promise<WriteFailure | undefined> {
  const run = randomBytes(6).toString("hex");
  const staged: Staged[] = [];
  let target = "";
  try {
    for (const file of files) {
      target = file.target;
      if ((await lstat(target).catch(() => undefined))?.isDirectory() === true) {
        throw Object.assign(new Error(`EISDIR: is a folder, '${target}'`), { code: "EISDIR" });
      }
      const temporary = join(dirname(target), `.seam-${run}-${staged.length}.tmp`);
      if (file.keep === undefined) await writeFile(temporary, file.content, { encoding: "utf8", flag: "wx" });
      else await writeKeeping(temporary, file.content, file.keep);
      staged.push({ target, temporary });
    }
    for (let i = 0; i < staged.length; i++) {
      const item = staged[i] as Staged;
      target = item.target;
      item.backup = await keepOld(item, run, i);
    }
  } catch (error) {
    return { target, error, unrestored: await restore(staged, 0, calls) };
  }
  for (let i = 0; i < staged.length; i++) {
    const item = staged[i] as Staged;
    try {
      await calls.rename(item.temporary, item.target);
    } catch (error) {
      return { target: item.target, error, unrestored: await restore(staged, i, calls) };
    }
  }
  await Promise.all(staged.map((item) => (item.backup === undefined ? undefined : rm(item.backup, { force: true }))));
  return undefined;
}

/**
 * Writes `content` to the new file `temporary` as the file it will replace was: created readable
 * by its owner alone (a 600 file's text is never readable by others on its way), given the old
 * owner where the system allows it (root; a group of one's own), then the old mode (after the
 * owner: chown clears set-id bits), and flushed to the disk before it is renamed into place.
 */
async function writeKeeping(temporary: string, content: string, keep: FileToKeep): Promise<void> {
  const handle = await open(temporary, "wx", 0o600);
  try {
    await handle.writeFile(content, "utf8");
    if (keep.uid !== process.getuid?.() || keep.gid !== process.getgid?.()) {
      // Only root may give a file away; others keep what they may (their own group). Not fatal:
      // the text is the user's either way.
      await handle.chown(keep.uid, keep.gid).catch(() => handle.chown(-1, keep.gid).catch(() => undefined));
    }
    await handle.chmod(keep.mode & 0o7777);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
}

/**
 * Keeps the file at `item.target` (if any) under a second name in its folder, for
 * {@link restore}: a hard link, so the target never goes missing, or where the file system has no
 * hard links, the target itself moved aside. undefined when there is no file there.
 *
 * @throws the file system's error when neither works (an immutable file): nothing was renamed yet
 */
async function keepOld(item: Staged, run: string, index: number): Promise<string | undefined> {
  if ((await lstat(item.target).catch(() => undefined)) === undefined) return undefined;
  const backup = join(dirname(item.target), `.seam-${run}-${index}.old`);
  try {
    await link(item.target, backup);
  } catch {
    await rename(item.target, backup);
  }
  return backup;
}

/**
 * Undoes the first `renamed` renames of `staged` (each target back to its old file, or removed
 * where there was none), puts back any other target moved aside, and removes the temporary
 * files and backups.
 *
 * @returns the targets that could not be restored
 */
async function restore(staged: readonly Staged[], renamed: number, calls: RenameCall): Promise<string[]> {
  const unrestored: string[] = [];
  for (let i = 0; i < staged.length; i++) {
    const item = staged[i] as Staged;
    try {
      if (i < renamed) {
        if (item.backup === undefined) await rm(item.target, { force: true });
        else await calls.rename(item.backup, item.target);
      } else if (item.backup !== undefined && (await lstat(item.target).catch(() => undefined)) === undefined) {
        // Moved aside (no hard links here) but not replaced: back into place.
        await calls.rename(item.backup, item.target);
      }
    } catch {
      unrestored.push(item.target);
    }
  }
  await Promise.all(
    staged.flatMap((item) => [rm(item.temporary, { force: true }), ...(item.backup === undefined ? [] : [rm(item.backup, { force: true })])]),
  );
  return unrestored;
}
