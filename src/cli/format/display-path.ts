/**
 * How every output format names a file: relative to the working folder, with `/` separators,
 * so the same run prints the same text on Windows and POSIX and in CI logs.
 */
import { isAbsolute, relative, resolve, sep } from "node:path";
import { escapeUntrusted } from "../../core/untrusted-text.js";

/**
 * The path of `path` relative to `cwd`, `/`-separated, for files inside `cwd`; a file outside it
 * (`/dev/null`, another checkout) is shown by its absolute path, as ESLint does, rather than as a
 * climb of `../` segments.
 *
 * @param path - a path as given by the user (relative to `cwd`, or absolute)
 * @param cwd - the folder output is relative to
 */
export function displayPath(path: string, cwd: string): string {
  const absolute = resolve(cwd, path);
  const rel = relative(cwd, absolute);
  const outside = isAbsolute(rel) || rel === ".." || rel.startsWith(`..${sep}`);
  const shown = rel === "" ? "." : outside ? absolute : rel;
  return sep === "/" ? shown : shown.split(sep).join("/");
}

/**
 * {@link displayPath} made safe for a terminal or a CI log: a file name (or a git ref in a
 * `ref:path` label) may hold ESC, BEL, line breaks or bidirectional controls, which are written
 * as escapes (`\u001b`, `\n`: see `core/untrusted-text.ts`). For the human formats and stderr;
 * JSON and SARIF carry the name itself, which their encoders escape.
 */
export function printablePath(path: string, cwd: string): string {
  return escapeUntrusted(displayPath(path, cwd));
}
