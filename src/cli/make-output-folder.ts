/**
 * Creates `seam compile`'s output folder without `mkdir(..., { recursive: true })`, whose loop
 * can spin forever where the file system answers oddly (Node's recursive mkdir on procfs, where
 * `mkdir` says ENOENT about a parent that exists). Instead: walk up with `stat` to the first
 * folder that exists, then create each missing level once, deepest last. Every step is one
 * system call per level, so it always ends.
 */
import { mkdir, rmdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { displayPath } from "./format/display-path.js";
import { describeFsCause } from "./fs-errors.js";

/** The folder is there (with the levels this call created), or why it cannot be. */
export type OutputFolder =
  | { readonly ok: true; readonly folder: string; readonly created: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/**
 * Makes sure the folder `path` exists, creating missing levels. Failures are returned, never
 * thrown; on failure the levels this call created are removed again.
 *
 * @param path - the folder, relative to `cwd` or absolute
 * @param cwd - folder that a relative `path` starts from
 * @returns on success the absolute folder and the folders created (shallowest first); on failure
 *   a reason to print after `cannot create the output folder: `
 */
export async function makeOutputFolder(path: string, cwd: string): Promise<OutputFolder> {
  const folder = resolve(cwd, path);
  const missing: string[] = [];
  for (let level = folder; ; ) {
    let isFolder: boolean;
    try {
      isFolder = (await stat(level)).isDirectory();
    } catch (error) {
      const parent = dirname(level);
      // ENOTDIR: some level above is a file; walking on finds it and names it.
      const code = (error as { code?: unknown }).code;
      if ((code === "ENOENT" || code === "ENOTDIR") && parent !== level) {
        missing.push(level);
        level = parent;
        continue;
      }
      return { ok: false, reason: describeFsCause(error) };
    }
    if (isFolder) break;
    return {
      ok: false,
      reason: level === folder ? "it exists and is not a folder" : `${displayPath(level, cwd)} exists and is not a folder`,
    };
  }
  const created: string[] = [];
  for (const level of missing.reverse()) {
    try {
      await mkdir(level);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      // Made by someone else since the walk: fine if it is a folder (not ours to remove).
      if (code === "EEXIST" && (await stat(level).then((s) => s.isDirectory(), () => false))) continue;
      await removeFolders(created);
      // The parent exists (it was just found or made), so ENOENT means this file system
      // accepts no new folder here (procfs, sysfs).
      return { ok: false, reason: code === "ENOENT" ? "this file system does not allow new folders here" : describeFsCause(error) };
    }
    created.push(level);
  }
  return { ok: true, folder, created };
}

/**
 * Removes `folders` (shallowest first, as {@link makeOutputFolder} returns them), deepest first,
 * stopping at the first that is not empty or cannot be removed: it only undoes empty levels.
 */
export async function removeFolders(folders: readonly string[]): Promise<void> {
  for (let i = folders.length - 1; i >= 0; i--) {
    try {
      await rmdir(folders[i] as string);
    } catch {
      return;
    }
  }
}
