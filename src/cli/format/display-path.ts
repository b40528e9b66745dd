/**
 * How every output format names a file: relative to the working folder, with `/` separators,
 * so the same run prints the same text on Windows and POSIX and in CI logs.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";

/**
 * The path of `path` relative to `cwd`, `/`-separated. A path on another drive (Windows) stays
 * absolute, since no relative path reaches it.
 *
 * @param path - a path as given by the user (relative to `cwd`, or absolute)
 * @param cwd - the folder output is relative to
 */
export function displayPath(path: string, cwd: string): string {
  const absolute = resolve(cwd, path);
  const rel = relative(cwd, absolute);
  const shown = rel === "" ? "." : isAbsolute(rel) ? absolute : rel;
  return sep === "/" ? shown : shown.split(sep).join("/");
}
