/**
 * The file pairs `seam diff` compares: two files given by path, or each `.seam` file under the
 * given paths in the work tree against the same file at a git ref (`git show ref:path`). Input
 * that cannot be used is reported on stderr, one line each, and makes the command exit 2.
 */
import { realpath } from "node:fs/promises";
import { relative, resolve, sep } from "node:path";
import { check } from "../analysis/check.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { createSourceFile, type SourceFile } from "../core/source-file.js";
import type { FileSide } from "../diff/diff.js";
import { printDiagnosticsOnStderr } from "./check-graph-file.js";
import { findSeamFiles, pathInside, SEAM_EXTENSION, type PathProblem } from "./find-seam-files.js";
import { gitTopLevel, listFilesAt, resolveCommit, showFileAt } from "./git.js";
import type { CliIo } from "./io.js";
import { GRAPH_TOO_LARGE_HINT, readSourceFile } from "./read-source-file.js";
import { MAX_SOURCE_BYTES, sizeProblem } from "../core/source-limit.js";
import { reportProblem } from "./report-problem.js";
import { decodeUtf8 } from "../core/utf8.js";

/** One file in its two versions; a side with no graphs stands for a file that does not exist there. */
export interface SidePair {
  readonly old: FileSide;
  readonly new: FileSide;
}

/** Checks a file; its errors are shown on stderr and make it unusable (`undefined`). */
async function checked(file: SourceFile, io: CliIo): Promise<FileSide | undefined> {
  const result = check(file);
  const errors: Diagnostic[] = result.diagnostics.filter((d) => d.severity === "error");
  if (errors.length === 0) return { file, graphs: result.graphs };
  await printDiagnosticsOnStderr(errors, io);
  reportProblem(io, { path: file.path, problem: "has errors, so its contract cannot be compared", hint: "fix them first; seam check shows them" });
  return undefined;
}

/** `old` and `new` read from disk; `undefined` (reported) when either cannot be used. */
export async function readFilePair(oldPath: string, newPath: string, io: CliIo): Promise<SidePair | undefined> {
  const sides: FileSide[] = [];
  for (const path of [oldPath, newPath]) {
    const read = readSourceFile(path, io.cwd);
    if (!read.ok) {
      reportProblem(io, read.problem);
      continue;
    }
    const side = await checked(read.file, io);
    if (side !== undefined) sides.push(side);
  }
  return sides.length === 2 ? { old: sides[0] as FileSide, new: sides[1] as FileSide } : undefined;
}

/** The work tree's side of `--against`: where it is and which files it holds. */
export interface WorkTree {
  /** Real path of the top of the work tree. */
  readonly top: string;
  /** `.seam` files under the paths, relative to `top` with `/`, mapped to the path to show. */
  readonly files: ReadonlyMap<string, string>;
  /**
   * The paths, relative to `top` with `/` (`.` for `top` itself), for `git ls-tree` run in `top`:
   * git reads a path as given against the folder it runs in, and refuses one that climbs out
   * and back in (`../repo/x.seam`) as outside the repository.
   */
  readonly pathspecs: readonly string[];
  /**
   * Paths with no `.seam` file in the work tree (gone, or a folder emptied), relative to `top`,
   * with their problem: fine when the ref has files there (they were deleted), else reported.
   */
  readonly absent: readonly { readonly key: string; readonly problem: PathProblem }[];
}

/** Finds the work tree and its `.seam` files; `undefined` (reported) when not in a git work tree or a path fails. */
export async function readWorkTree(paths: readonly string[], io: CliIo): Promise<WorkTree | undefined> {
  const top = await gitTopLevel(io.cwd);
  if (!top.ok || top.top === undefined) {
    reportProblem(io, { path: io.cwd, problem: `is not in a git work tree (${top.ok ? "no top folder" : top.reason})`, hint: "run seam diff --against inside a repository, or pass two files" });
    return undefined;
  }
  const realTop = await realpath(top.top);
  const realCwd = await realpath(io.cwd);
  // Before any folder is walked: a path outside the work tree has no version at any ref, and
  // walking it (`/tmp`, a home folder) takes long and fails on files unrelated to the repository.
  let outside = false;
  const pathspecs: string[] = [];
  for (const path of paths) {
    // A path that does not exist (a file deleted since the ref) is placed by its name.
    const real = await realpath(resolve(io.cwd, path)).catch(() => resolve(realCwd, path));
    const key = pathInside(realTop, real);
    if (key !== undefined) {
      pathspecs.push(key === "" ? "." : key);
      continue;
    }
    reportProblem(io, outsideWorkTree(path, realTop));
    outside = true;
  }
  if (outside) return undefined;
  const found = findSeamFiles(paths, io.cwd);
  const absent = found.problems.filter((p) => p.problem === "no such file or folder" || p.problem === `no ${SEAM_EXTENSION} files in this folder`);
  const fatal = found.problems.filter((p) => !absent.includes(p));
  for (const problem of fatal) reportProblem(io, problem);
  if (fatal.length > 0) return undefined;
  const files = new Map<string, string>();
  for (const file of found.files) {
    // A file found through a link may still lie outside.
    const key = pathInside(realTop, await realpath(resolve(io.cwd, file)));
    if (key === undefined) {
      reportProblem(io, outsideWorkTree(file, realTop));
      return undefined;
    }
    files.set(key, file);
  }
  const topKey = (path: string): string => relative(realTop, resolve(realCwd, path)).split(sep).join("/");
  return { top: realTop, files, pathspecs, absent: absent.map((problem) => ({ key: topKey(problem.path), problem })) };
}

/** The problem of a path (as given) outside the work tree whose real top folder is `top`. */
function outsideWorkTree(path: string, top: string): PathProblem {
  return { path, problem: `is outside the git work tree ${top}`, hint: "pass files or folders inside it, or run seam diff in the repository they belong to" };
}

/** Whether a path found by `git ls-tree` is one `seam check` would take from a folder. */
function isSeamPath(path: string): boolean {
  return path.endsWith(SEAM_EXTENSION) && !path.split("/").some((part) => part.startsWith(".") || part === "node_modules");
}

/**
 * Every file pair between the work tree and `ref`, sorted by path.
 * @returns `undefined` when the ref names no commit or a file cannot be used (each reported)
 */
export async function readAgainst(ref: string, tree: WorkTree, io: CliIo): Promise<SidePair[] | undefined> {
  const commit = await resolveCommit(ref, io.cwd);
  if (commit === undefined) {
    reportProblem(io, { path: ref, problem: "names no commit of this repository", hint: "pass a branch, tag or commit that exists (git log --oneline)" });
    return undefined;
  }
  const listed = await listFilesAt(commit, tree.pathspecs, tree.top);
  if (!listed.ok || listed.files === undefined) {
    reportProblem(io, { path: ref, problem: `cannot be listed (${listed.ok ? "no output" : listed.reason})`, hint: "check the ref and the paths" });
    return undefined;
  }
  const oldSizes = new Map(listed.files.filter(({ path }) => isSeamPath(path)).map(({ path, size }) => [path, size]));
  const oldPaths = [...oldSizes.keys()];
  // A path with nothing in the work tree is fine when the ref had files there: they were deleted.
  const missing = tree.absent.filter(({ key }) => !oldPaths.some((p) => key === "" || p === key || p.startsWith(`${key}/`)));
  for (const { problem } of missing) reportProblem(io, problem);
  if (missing.length > 0) return undefined;
  const keys = [...new Set([...oldPaths, ...tree.files.keys()])].sort();
  const pairs: SidePair[] = [];
  let usable = true;
  for (const key of keys) {
    const shown = tree.files.get(key);
    const size = oldSizes.get(key);
    const oldFile = size === undefined ? null : await fileAt(commit, ref, key, size, tree.top, io);
    const newFile = shown === undefined ? null : await workFile(shown, io);
    if (oldFile === undefined || newFile === undefined) {
      usable = false;
      continue;
    }
    const old = oldFile === null ? undefined : await checked(oldFile, io);
    const next = newFile === null ? undefined : await checked(newFile, io);
    if ((oldFile !== null && old === undefined) || (newFile !== null && next === undefined)) {
      usable = false;
      continue;
    }
    // A file on one side only is compared with an empty file: all its graphs are added or removed.
    const anchor = (next ?? old) as FileSide;
    pairs.push({ old: old ?? { file: anchor.file, graphs: [] }, new: next ?? { file: anchor.file, graphs: [] } });
  }
  return usable ? pairs : undefined;
}

/**
 * The file at the ref, labelled `ref:path`; `undefined` (reported) when git cannot show it, it is
 * over the size limit a work-tree file is held to (`size`, from the ref's listing), or it is not UTF-8.
 */
async function fileAt(commit: string, ref: string, key: string, size: number, top: string, io: CliIo): Promise<SourceFile | undefined> {
  const label = `${ref}:${key}`;
  if (size > MAX_SOURCE_BYTES) {
    reportProblem(io, { path: label, problem: sizeProblem(size, MAX_SOURCE_BYTES), hint: GRAPH_TOO_LARGE_HINT });
    return undefined;
  }
  const shown = await showFileAt(commit, key, top);
  if (!shown.ok) {
    reportProblem(io, { path: label, problem: `cannot be read from git (${shown.reason})`, hint: "check the ref" });
    return undefined;
  }
  const decoded = decodeUtf8(shown.stdout);
  if (decoded.ok) return createSourceFile(label, decoded.text);
  reportProblem(io, { path: `${label}:${decoded.at.line}:${decoded.at.column}`, problem: decoded.problem, hint: "save the file as UTF-8" });
  return undefined;
}

async function workFile(path: string, io: CliIo): Promise<SourceFile | undefined> {
  const read = readSourceFile(path, io.cwd);
  if (read.ok) return read.file;
  reportProblem(io, read.problem);
  return undefined;
}
