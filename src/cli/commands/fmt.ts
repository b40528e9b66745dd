/**
 * `seam fmt <files or folders...> [--check] [--stdin]`: rewrites `.seam` files in the one
 * canonical layout (`parser/print.ts`), as gofmt and `terraform fmt` do.
 *
 * - Without options, each file that is not already formatted is rewritten in place (through a
 *   temporary file and a rename, keeping its mode and owner) and its path printed. A symbolic
 *   link, a read-only file and a file with several hard links are refused (`rewrite-target.ts`).
 * - `--check` rewrites nothing: it prints the path of each file that would change and exits 1
 *   when there is one (for CI). A file a rewrite would refuse is refused by `--check` too, with
 *   exit 2.
 * - `--stdin` formats standard input to standard output (for editors); no paths are taken.
 *
 * A file with syntax errors is never rewritten: its errors are printed on stderr and the command
 * exits 2, as it does for a path it cannot read. Exit codes: 0 done (or nothing to change),
 * 1 `--check` found files to change, 2 unusable input or an internal error: a crash of the
 * printer on one file is reported on that file and the others are still formatted, but the
 * run exits 2, never 1, so CI does not read a bug as "would reformat".
 */
import type { Stats } from "node:fs";
import { resolve } from "node:path";
import { createSourceFile } from "../../core/source-file.js";
import { formatSource, type FormatResult } from "../../parser/print.js";
import { printDiagnosticsOnStderr } from "../check-graph-file.js";
import { findSeamFiles } from "../find-seam-files.js";
import type { CliIo } from "../io.js";
import { readSourceFile } from "../read-source-file.js";
import { readStdinBounded } from "../read-stdin.js";
import { reportProblem } from "../report-problem.js";
import { checkRewriteTarget } from "../rewrite-target.js";
import { writeReplacing } from "../write-replacing.js";
import { escapeUntrusted } from "../../core/untrusted-text.js";
import { decodeUtf8 } from "../../core/utf8.js";

/** Options of {@link fmtCommand}, as parsed from the command line. */
export interface FmtOptions {
  /** Files and folders, relative to `io.cwd` or absolute; empty with `stdin`. */
  readonly paths: readonly string[];
  readonly check: boolean;
  readonly stdin: boolean;
}

/** Runs `seam fmt`; returns the exit code (0, 1 or 2). */
export async function fmtCommand(options: FmtOptions, io: CliIo): Promise<number> {
  if (options.stdin) return formatStdin(options, io);
  if (options.paths.length === 0) {
    io.stderr("seam fmt: give files or folders to format, or --stdin (see 'seam fmt --help')\n");
    return 2;
  }
  const found = findSeamFiles(options.paths, io.cwd);
  let unusable = found.problems.length;
  for (const problem of found.problems) reportProblem(io, problem);
  let toChange = 0;
  for (const path of found.files) {
    const read = readSourceFile(path, io.cwd);
    if (!read.ok) {
      reportProblem(io, read.problem);
      unusable++;
      continue;
    }
    let result: FormatResult;
    try {
      result = formatSource(read.file);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      reportProblem(io, { path, problem: `was not formatted: internal error: ${detail}`, hint: "this is a bug in seam; please report it with the file" });
      unusable++;
      continue;
    }
    if (!result.ok) {
      reportProblem(io, { path, problem: "has syntax errors and was not formatted", hint: "fix the errors below first" });
      await printDiagnosticsOnStderr(result.diagnostics, io);
      unusable++;
      continue;
    }
    if (!result.changed) continue;
    // --check answers what a rewrite would do, so a file fmt would refuse is refused here too.
    const target = resolve(io.cwd, path);
    const allowed = await checkRewriteTarget(path, target, options.check);
    if (!allowed.ok) {
      reportProblem(io, allowed.problem);
      unusable++;
      continue;
    }
    toChange++;
    if (!options.check) {
      const written = await writeFormatted(path, target, result.text, allowed.keep, io);
      if (!written) {
        unusable++;
        continue;
      }
    }
    io.stdout(`${escapeUntrusted(path)}\n`);
  }
  if (unusable > 0) return 2;
  return options.check && toChange > 0 ? 1 : 0;
}

async function formatStdin(options: FmtOptions, io: CliIo): Promise<number> {
  if (options.paths.length > 0) {
    io.stderr("seam fmt: --stdin takes no paths: it formats standard input to standard output\n");
    return 2;
  }
  if (io.readStdin === undefined) {
    io.stderr("seam fmt: standard input cannot be read here\n");
    return 2;
  }
  const read = await readStdinBounded(io);
  if (!read.ok) {
    reportProblem(io, read.problem);
    return 2;
  }
  const decoded = decodeUtf8(read.bytes);
  if (!decoded.ok) {
    reportProblem(io, { path: `<stdin>:${decoded.at.line}:${decoded.at.column}`, problem: decoded.problem, hint: "send UTF-8" });
    return 2;
  }
  const text = decoded.text;
  const result = formatSource(createSourceFile("<stdin>", text));
  if (!result.ok) {
    reportProblem(io, { path: "<stdin>", problem: "has syntax errors and was not formatted", hint: "fix the errors below first" });
    await printDiagnosticsOnStderr(result.diagnostics, io);
    return 2;
  }
  if (options.check) return result.changed ? 1 : 0;
  io.stdout(result.text);
  return 0;
}

/** Replaces the file at `target` (shown as `path`) with `text`, giving it the mode and owner of `keep`, the old file's `lstat`. */
async function writeFormatted(path: string, target: string, text: string, keep: Stats, io: CliIo): Promise<boolean> {
  try {
    await writeReplacing(target, text, keep);
    return true;
  } catch (error) {
    const { describeFsError } = await import("../fs-errors.js");
    reportProblem(io, { path, ...describeFsError(error, "write") });
    return false;
  }
}
