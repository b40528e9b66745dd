/**
 * The little of git that `seam diff --against` needs, by running the `git` program without a
 * shell (arguments are passed as a list, so a ref or path is never interpreted by a shell), as
 * `buf breaking --against` reads the other side from a git ref.
 */
import { execFile } from "node:child_process";

/** Most bytes read from one git command: a graph file is capped at 10 MiB, a listing is small. */
const MAX_GIT_OUTPUT = 32 * 1024 * 1024;

/** What a git command gave: its stdout on success, else a one-line reason. */
export type GitResult = { readonly ok: true; readonly stdout: Buffer } | { readonly ok: false; readonly reason: string };

/**
 * Runs `git <args>` in `cwd` and collects its output.
 * @returns stdout, or the first line of stderr (`git is not installed` when the program is missing)
 */
export function runGit(args: readonly string[], cwd: string): Promise<GitResult> {
  return new Promise((done) => {
    execFile(
      "git",
      [...args],
      { cwd, encoding: "buffer", maxBuffer: MAX_GIT_OUTPUT, windowsHide: true, env: { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" } },
      (error, stdout, stderr) => {
        if (error === null) return done({ ok: true, stdout });
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return done({ ok: false, reason: "git is not installed (install git, or pass two files)" });
        const line = stderr.toString("utf8").split("\n").find((l) => l.trim() !== "") ?? error.message;
        done({ ok: false, reason: line.replace(/^(fatal|error): /, "").trim() });
      },
    );
  });
}

/** The work tree's top folder, or why `cwd` is not in one. */
export async function gitTopLevel(cwd: string): Promise<GitResult & { readonly top?: string }> {
  const result = await runGit(["rev-parse", "--show-toplevel"], cwd);
  return result.ok ? { ...result, top: result.stdout.toString("utf8").trim() } : result;
}

/**
 * The commit a ref names (a branch, tag, `HEAD~2`, a hash), as a full hash; `undefined` when the
 * ref names no commit. A ref starting with `-` is refused before git sees it, so it cannot be
 * taken for an option.
 */
export async function resolveCommit(ref: string, cwd: string): Promise<string | undefined> {
  if (ref === "" || ref.startsWith("-")) return undefined;
  const result = await runGit(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], cwd);
  return result.ok ? result.stdout.toString("utf8").trim() : undefined;
}

/** A file of a tree at a commit: its path relative to the top of the work tree, and its size in bytes. */
export interface TreeFile {
  readonly path: string;
  readonly size: number;
}

/**
 * The files under `pathspecs` (relative to `cwd`) at `commit`, as paths relative to the top of
 * the work tree with their sizes (`git ls-tree -l --full-name`), sorted as git sorts them; a
 * submodule, which has no size there, is left out (it holds no file of this repository).
 * Pathspecs are literal: a file named `:(glob)x.seam` is that file, not pathspec magic.
 */
export async function listFilesAt(commit: string, pathspecs: readonly string[], cwd: string): Promise<GitResult & { readonly files?: readonly TreeFile[] }> {
  const result = await runGit(["--literal-pathspecs", "ls-tree", "-r", "-z", "-l", "--full-name", commit, "--", ...pathspecs], cwd);
  if (!result.ok) return result;
  const files: TreeFile[] = [];
  // Each entry: "<mode> <type> <object> <size>\t<path>".
  for (const entry of result.stdout.toString("utf8").split("\0")) {
    const tab = entry.indexOf("\t");
    const size = Number(entry.slice(0, tab).trim().split(/ +/).pop());
    if (tab !== -1 && Number.isSafeInteger(size)) files.push({ path: entry.slice(tab + 1), size });
  }
  return { ...result, files };
}

/** The bytes of `path` (relative to the top of the work tree) at `commit` (`git show commit:path`). */
export function showFileAt(commit: string, path: string, top: string): Promise<GitResult> {
  return runGit(["show", `${commit}:${path}`], top);
}
