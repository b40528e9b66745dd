/**
 * Whether `seam fmt` may replace a user's file, and what of it to keep. fmt writes a new file and
 * renames it over the old one (no reader, and no crash, ever sees half a file), so the new file
 * must be given the old one's mode and owner, and a file that rename would wrong is refused
 * before anything is written.
 */
import { constants, type Stats } from "node:fs";
import { access, lstat } from "node:fs/promises";
import type { PathProblem } from "./find-seam-files.js";
import { describeFsError } from "./fs-errors.js";

/** A file fmt may replace and what to give its replacement, or why it may not. */
export type RewriteCheck = { readonly ok: true; readonly keep: Stats } | { readonly ok: false; readonly problem: PathProblem };

/**
 * Checks the file at `target` (shown as `path`) before fmt replaces it. Refused:
 * - a symbolic link: its target is not ours to replace;
 * - a file with no write permission bit at all (`chmod 444`), even for root, who could write it:
 *   read-only is the owner's word that it must not change, as it is for an editor;
 * - a file this user may not write (`access(W_OK)`), which a rename in a writable folder would
 *   still replace;
 * - a file with more than one hard link: a rename gives the name a new file and leaves the other
 *   names with the old text, and writing in place could leave half a file after a crash, so
 *   neither is done silently.
 *
 * @param checkOnly - for `--check`, which reports what a rewrite would refuse, in its tense
 * @returns the file's `lstat`, whose mode and owner the new file gets
 */
export async function checkRewriteTarget(path: string, target: string, checkOnly = false): Promise<RewriteCheck> {
  const refuse = (problem: string, hint: string): RewriteCheck => ({ ok: false, problem: { path, problem, hint } });
  const notRewritten = checkOnly ? "would not be rewritten" : "was not rewritten";
  let info: Stats;
  try {
    info = await lstat(target);
    if (info.isSymbolicLink()) return refuse(`is a symbolic link and ${notRewritten}`, "format the file it points to");
    if ((info.mode & 0o222) === 0) return refuse("cannot be written: the file is read-only", "make it writable to format it, e.g. chmod u+w");
    await access(target, constants.W_OK);
  } catch (error) {
    return { ok: false, problem: { path, ...describeFsError(error, "write") } };
  }
  if (info.nlink > 1) {
    return refuse(
      `has ${info.nlink} hard links and ${notRewritten}`,
      "rewriting it would part it from its other names; format one copy with 'seam fmt --stdin' and copy the text back",
    );
  }
  return { ok: true, keep: info };
}
