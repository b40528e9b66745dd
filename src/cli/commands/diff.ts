/**
 * `seam diff <old.seam> <new.seam>` and `seam diff --against <ref>... [files or folders...]`:
 * what changed in the handoff contracts between two versions, and who it breaks if the agents
 * deploy apart (see `src/diff/`). Several `--against` refs compare the work tree with each (every
 * version that may still have tasks in flight) and merge the findings.
 *
 * Exit codes, as `seam check`: 0 nothing at the failing level, 1 a finding at the failing level
 * (an error: a breaking change under `--fail-on breaking`; a breaking change whose agent's major
 * did not move, or a graph-wide break, under `--fail-on missing-version-bump`), 2 unusable
 * input: a file that cannot be read or has errors (shown with file:line:column), a ref that
 * names no commit, a folder outside a git work tree, a path outside the work tree (refused
 * before any folder is walked), or wrong arguments.
 */
import type { Finding } from "../../diff/finding.js";
import type { RefFinding } from "../../diff/merge-refs.js";
import { readAgainst, readFilePair, readWorkTree, type SidePair } from "../diff-sides.js";
import type { DiffFailOn, CheckFormat } from "../formats.js";
import type { CliIo } from "../io.js";
import { useColor } from "../use-color.js";
import { stringifyUntrusted } from "../../core/untrusted-text.js";

/** Options of {@link diffCommand}, as parsed from the command line. */
export interface DiffOptions {
  /** Two files without `against`; files and folders (default `.`) with it. */
  readonly paths: readonly string[];
  /** Git refs to compare the work tree against; empty for the two-file form. */
  readonly against: readonly string[];
  readonly format: CheckFormat;
  readonly failOn: DiffFailOn;
}

/** Runs `seam diff`; returns the exit code (0, 1 or 2). */
export async function diffCommand(options: DiffOptions, io: CliIo): Promise<number> {
  const [{ diffFiles }, { applyVersionPolicy }, { mergeRefs }] = await Promise.all([
    import("../../diff/diff.js"),
    import("../../diff/version-policy.js"),
    import("../../diff/merge-refs.js"),
  ]);
  const compare = (pair: SidePair): Finding[] => {
    const findings = diffFiles(pair.old, pair.new);
    return options.failOn === "missing-version-bump" ? applyVersionPolicy(findings, pair.old, pair.new) : findings;
  };

  let findings: readonly Finding[];
  let fileCount: number;
  if (options.against.length === 0) {
    if (options.paths.length !== 2) {
      io.stderr(`seam: diff takes two files, <old.seam> <new.seam>, or --against <ref> [files or folders...] (see 'seam diff --help')\n`);
      return 2;
    }
    const pair = await readFilePair(options.paths[0] as string, options.paths[1] as string, io);
    if (pair === undefined) return 2;
    findings = compare(pair);
    fileCount = 1;
  } else {
    const tree = await readWorkTree(options.paths.length > 0 ? options.paths : ["."], io);
    if (tree === undefined) return 2;
    const runs: { ref: string; findings: Finding[] }[] = [];
    const files = new Set<string>();
    for (const ref of options.against) {
      const pairs = await readAgainst(ref, tree, io);
      if (pairs === undefined) return 2;
      for (const pair of pairs) files.add(pair.new.file.path);
      runs.push({ ref, findings: pairs.flatMap(compare) });
    }
    const merged = mergeRefs(runs);
    findings = options.against.length > 1 ? merged.map(withRefs) : merged;
    fileCount = files.size;
  }
  io.stdout(await formatFindings(findings, options.format, fileCount, io));
  return findings.some((f) => f.severity === "error") ? 1 : 0;
}

/** Names the refs a finding holds against, when several were given. */
function withRefs(finding: RefFinding): RefFinding {
  return { ...finding, message: `${finding.message} (against ${finding.against.join(", ")})` };
}

/** The findings in a `seam check` format; the JSON records carry the class, graph, owner and subject too. */
async function formatFindings(findings: readonly Finding[], format: CheckFormat, fileCount: number, io: CliIo): Promise<string> {
  switch (format) {
    case "pretty": {
      // "no problems" would read as a lint verdict; here nothing changed in any contract.
      if (findings.length === 0) return `no changes to the handoff contracts in ${fileCount} file${fileCount === 1 ? "" : "s"}\n`;
      const { formatPretty } = await import("../format/pretty.js");
      return formatPretty(findings, { cwd: io.cwd, color: useColor(io), fileCount });
    }
    case "json": {
      const { toJsonDiagnostics } = await import("../format/json.js");
      const records = toJsonDiagnostics(findings, io.cwd).map((record, i) => {
        const f = findings[i] as Finding & { against?: readonly string[] };
        return {
          ...record,
          class: f.class,
          graph: f.graph,
          ...(f.owner === undefined ? {} : { owner: f.owner }),
          subject: f.subject,
          ...(f.against === undefined ? {} : { against: f.against }),
        };
      });
      // File names and graph text reach a terminal: bidi and invisible characters as \uXXXX.
      return `${stringifyUntrusted(records, 2)}\n`;
    }
    case "github": {
      const { formatGithub } = await import("../format/github.js");
      return formatGithub(findings, io.cwd);
    }
    case "sarif": {
      const [{ formatSarif }, { findingCatalog }, { docsPageUrl, packageVersion }] = await Promise.all([
        import("../format/sarif.js"),
        import("../../diff/findings/index.js"),
        import("../../core/package-files.js"),
      ]);
      return formatSarif(findings, {
        cwd: io.cwd,
        rules: findingCatalog,
        version: packageVersion(),
        command: "seam diff",
        helpUri: (id) => docsPageUrl(`diff/${id}.md`),
      });
    }
  }
}
