/**
 * Turns the paths given to `seam check` into the list of files to check: a file is taken as
 * given, a folder is searched recursively for `*.seam` files (ESLint and tsc habits: sorted,
 * `node_modules` and dot-folders skipped). Problems with a path are returned, never thrown, so
 * the other paths are still checked.
 *
 * The file system is asked synchronously, as `read-source-file.ts` reads: the walk is sequential
 * anyway, and `seam check` of a file or two would spend more starting the thread pool than
 * walking. `realpathSync.native` is the system's realpath(3), as `node:fs/promises` uses.
 */
import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { describeFsError } from "./fs-errors.js";

/** A path that could not be used, with a one-line reason and what to do about it. */
export interface PathProblem {
  /** The path as the user gave it (or as found inside a folder). */
  readonly path: string;
  /** What is wrong, e.g. `no such file or folder`. */
  readonly problem: string;
  /** What to do, e.g. `check the path`. */
  readonly hint: string;
}

/** The files to check, in a stable order, and the paths that could not be used. */
export interface FoundFiles {
  /** Paths as the user would write them: given files verbatim, folder members joined onto the folder. */
  readonly files: readonly string[];
  readonly problems: readonly PathProblem[];
}

/** File extension searched for inside folders. */
export const SEAM_EXTENSION = ".seam";

/**
 * Resolves each argument: a file is kept as given (whatever its extension, as ESLint does for
 * explicit files); a folder contributes every `*.seam` file below it, sorted by name, skipping
 * `node_modules` and names starting with `.`. A symbolic link inside a folder is followed only
 * when it leads to a place inside that folder (by real path): one leading out of it is reported
 * and not read, since a link committed into a repository (`evil.seam -> ~/.aws/credentials`)
 * would otherwise print another file's lines in a CI log. Each folder is entered at most once
 * per argument, so link loops end. The same file named twice is kept once.
 *
 * @param paths - paths as typed by the user, relative to `cwd` or absolute
 * @param cwd - folder that relative paths start from
 */
export function findSeamFiles(paths: readonly string[], cwd: string): FoundFiles {
  const files: string[] = [];
  const problems: PathProblem[] = [];
  const seenFiles = new Set<string>();

  const addFile = (path: string): void => {
    const real = realpathOr(resolve(cwd, path));
    if (seenFiles.has(real)) return;
    seenFiles.add(real);
    files.push(path);
  };

  // Depth-first, children sorted by name, so output order is the same on every machine.
  // `seenFolders` is per argument: it stops link loops inside one walk, while a folder named
  // twice (or inside another named folder) is still searched and its files deduplicated.
  const walk = (folder: string, found: string[], seenFolders: Set<string>, root: string): void => {
    const real = realpathOr(resolve(cwd, folder));
    if (seenFolders.has(real)) return;
    seenFolders.add(real);
    let entries: Dirent[];
    try {
      entries = readdirSync(resolve(cwd, folder), { withFileTypes: true });
    } catch (error) {
      problems.push({ path: folder, ...describeFsError(error) });
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const child = join(folder, entry.name);
      let isFolder = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        // A dangling link inside a folder is not the user's request: skip it silently.
        const target = statOrUndefined(resolve(cwd, child));
        isFolder = target?.isDirectory() ?? false;
        isFile = target?.isFile() ?? false;
        if ((isFolder || (isFile && entry.name.endsWith(SEAM_EXTENSION))) && !within(root, resolve(cwd, child))) {
          problems.push({ path: child, problem: "is a symbolic link to a place outside the folder being checked, so it was not read", hint: "name the file itself to check it" });
          continue;
        }
      }
      if (isFolder) walk(child, found, seenFolders, root);
      else if (isFile && entry.name.endsWith(SEAM_EXTENSION)) found.push(child);
    }
  };

  for (const path of paths) {
    let info;
    try {
      info = statSync(resolve(cwd, path));
    } catch (error) {
      problems.push({ path, ...describeFsError(error) });
      continue;
    }
    if (info.isDirectory()) {
      const found: string[] = [];
      const problemsBefore = problems.length;
      walk(path, found, new Set(), realpathOr(resolve(cwd, path)));
      if (found.length === 0 && problems.length === problemsBefore) {
        problems.push({
          path,
          problem: `no ${SEAM_EXTENSION} files in this folder`,
          hint: `pass ${SEAM_EXTENSION} files or a folder that holds some`,
        });
      }
      for (const file of found) addFile(file);
    } else {
      addFile(path);
    }
  }
  return { files, problems };
}

/** Whether `path`'s real path (links resolved) lies inside the folder whose real path is `root`. */
function within(root: string, path: string): boolean {
  let real: string;
  try {
    real = realpathSync.native(path);
  } catch {
    return false;
  }
  return pathInside(root, real) !== undefined;
}

/**
 * `path` relative to the folder `root`, `/`-separated (`""` for `root` itself), when it lies
 * inside it; `undefined` when it does not (a climb of `..`, or another drive on Windows). Names
 * are compared as given: pass real paths (links resolved) to ask about places.
 */
export function pathInside(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  if (isAbsolute(rel) || rel.split(sep)[0] === "..") return undefined;
  return rel.split(sep).join("/");
}

/** The real path of `path` (links resolved), or `path` itself when it has none (a dangling link, a race). */
function realpathOr(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/** What `path` leads to, or `undefined` when it leads nowhere that can be asked (dangling, a loop, no permission). */
function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
