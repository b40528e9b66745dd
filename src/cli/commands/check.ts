/**
 * `seam check <files or folders...>`: reads every `.seam` file, runs the analysis and prints the
 * diagnostics in the chosen format (docs/cli.md; docs/rules/ for each rule).
 *
 * Exit codes: 0 clean (warnings allowed up to `--max-warnings`), 1 errors found or too many
 * warnings (ESLint's convention), 2 some input could not be read. Unreadable inputs are
 * reported one line each on stderr and the remaining files are still checked and printed.
 */
import { sortDiagnostics, type Diagnostic } from "../../core/diagnostic.js";
import { createCliProgram } from "../disk-host.js";
import { findSeamFiles } from "../find-seam-files.js";
import type { CheckFormat } from "../formats.js";
import type { CliIo } from "../io.js";
import { reportProblem } from "../report-problem.js";
import { useColor } from "../use-color.js";

/** Options of {@link checkCommand}, as parsed from the command line. */
export interface CheckOptions {
  /** Files and folders, relative to `io.cwd` or absolute. */
  readonly paths: readonly string[];
  readonly format: CheckFormat;
  /** Exit 1 when there are more warnings than this (a whole number); absent: no limit. */
  readonly maxWarnings?: number;
}

/** Runs `seam check`; returns the exit code (0, 1 or 2). */
export async function checkCommand(options: CheckOptions, io: CliIo): Promise<number> {
  const found = findSeamFiles(options.paths, io.cwd);
  let inputProblems = found.problems.length;
  for (const problem of found.problems) reportProblem(io, problem);

  const program = createCliProgram(io.cwd);
  const diagnostics: Diagnostic[] = [];
  let checked = 0;
  for (const path of found.files) {
    const result = await program.checkPath(path);
    if (!result.ok) {
      reportProblem(io, result.problem);
      inputProblems++;
      continue;
    }
    checked++;
    // A loop, not push(...xs): spreading a huge array into arguments overflows the stack.
    for (const d of result.result.diagnostics) diagnostics.push(d);
  }
  const sorted = sortDiagnostics(diagnostics);
  // With nothing read, a pretty "no problems in 0 files" would mislead; machine formats still
  // print their (empty) document so consumers can parse it.
  if (checked > 0 || options.format !== "pretty") {
    io.stdout(await formatDiagnostics(sorted, options.format, checked, io));
  }

  const warnings = sorted.filter((d) => d.severity === "warning").length;
  const tooManyWarnings = options.maxWarnings !== undefined && warnings > options.maxWarnings;
  if (tooManyWarnings) {
    const found = `${warnings} ${warnings === 1 ? "warning" : "warnings"}`;
    io.stderr(`seam: ${found} found, more than the ${options.maxWarnings} that --max-warnings allows\n`);
  }
  if (inputProblems > 0) return 2;
  return sorted.some((d) => d.severity === "error") || tooManyWarnings ? 1 : 0;
}

// Each formatter is loaded only when asked for: start-up time is part of the product.
async function formatDiagnostics(diagnostics: readonly Diagnostic[], format: CheckFormat, fileCount: number, io: CliIo): Promise<string> {
  switch (format) {
    case "pretty": {
      const { formatPretty } = await import("../format/pretty.js");
      return formatPretty(diagnostics, { cwd: io.cwd, color: useColor(io), fileCount });
    }
    case "json": {
      const { formatJson } = await import("../format/json.js");
      return formatJson(diagnostics, io.cwd);
    }
    case "github": {
      const { formatGithub } = await import("../format/github.js");
      return formatGithub(diagnostics, io.cwd);
    }
    case "sarif": {
      const [{ formatSarif }, { ruleCatalog }, { packageVersion }] = await Promise.all([
        import("../format/sarif.js"),
        import("../../analysis/rules/index.js"),
        import("../../core/package-files.js"),
      ]);
      return formatSarif(diagnostics, { cwd: io.cwd, rules: ruleCatalog, version: packageVersion() });
    }
  }
}
