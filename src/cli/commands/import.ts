/**
 * `seam import <format> <input> [--out file.seam]`: writes the `.seam` graph of a framework's
 * graph (docs/import.md), and `seam import --check <format> <input> <file.seam>`: the drift
 * between the two, one finding per agent, edge, entry or end that one has and the other lacks.
 *
 * `<input>` is a file (a folder holding `agents.yaml` and `tasks.yaml`, or `agents.yaml` itself,
 * for `crewai`); with `--run`, `langgraph` and `openai-agents` take `module:attribute` instead and
 * run a helper with the user's own Python or Node that loads it and prints its graph (the only
 * code `seam import` runs). Inputs are held to the 10 MB limit of `.seam` files.
 *
 * Exit codes: 0 written (or no drift), 1 drift found, 2 unusable input (with file:line:column
 * where the input has lines), a helper that failed, or wrong arguments.
 */
import { execFile } from "node:child_process";
import { access, stat } from "node:fs/promises";
import { basename, extname, join, resolve } from "node:path";
import type { Diagnostic } from "../../core/diagnostic.js";
import { createSourceFile, type SourceFile } from "../../core/source-file.js";
import { sizeOverLimit, sizeProblem } from "../../core/source-limit.js";
import { escapeUntrusted, quoteUntrusted } from "../../core/untrusted-text.js";
import type { ImportFormat, ImportResult } from "../../import/index.js";
import type { CheckFormat } from "../formats.js";
import { helperRuntime, splitSpec } from "../import-helpers.js";
import type { CliIo } from "../io.js";
import { MAX_SOURCE_BYTES, readSourceFile } from "../read-source-file.js";
import { reportProblem } from "../report-problem.js";
import { useColor } from "../use-color.js";
import { writeReplacing } from "../write-replacing.js";

/** Options of {@link importCommand}, as parsed from the command line. */
export interface ImportOptions {
  readonly format: ImportFormat;
  readonly input: string;
  /** The `.seam` file to compare with (`--check`). */
  readonly seam?: string;
  readonly check: boolean;
  readonly out?: string;
  /** The graph's name (default: the input's base name); with `--check`, which graph of the file. */
  readonly name?: string;
  readonly run: boolean;
  readonly python: string;
  readonly node: string;
  readonly process: "sequential" | "hierarchical";
  readonly manager: string;
  readonly findings: CheckFormat;
}

/** `3 agents`, `1 edge`. */
function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Runs `seam import`; returns the exit code (0, 1 or 2). */
export async function importCommand(options: ImportOptions, io: CliIo): Promise<number> {
  if (options.check !== (options.seam !== undefined)) {
    io.stderr(
      options.check
        ? "seam: import --check needs the .seam file after the input: seam import --check <format> <input> <file.seam>\n"
        : "seam: import takes <format> <input>; to compare with a .seam file, add --check (see 'seam import --help')\n",
    );
    return 2;
  }
  if (options.check && options.out !== undefined) {
    io.stderr("seam: import --check writes nothing; leave out --out\n");
    return 2;
  }
  const imported = await readInput(options, io);
  if (imported === undefined) return 2;
  const { toSeam } = await import("../../import/index.js");
  const seam = toSeam(imported.graph);
  if (!seam.ok) {
    io.stderr(`seam: ${escapeUntrusted(options.input, 200)}: ${seam.message} (${seam.hint})\n`);
    return 2;
  }
  const { decided, text, guesses } = seam.output;
  if (options.check) return driftCheck(options, io, imported.graph.source, text);
  // A graph the rest of Seam refuses to read is no help: say so instead of writing it.
  const tooLarge = sizeOverLimit(text);
  if (tooLarge !== undefined) {
    io.stderr(
      `seam: ${escapeUntrusted(options.input, 200)}: the imported graph ${sizeProblem(tooLarge, MAX_SOURCE_BYTES)} that seam check reads; nothing written ` +
        `(${count(decided.agents.length, "agent")}, ${count(decided.edges.length, "edge")}: import the part of the graph one contract covers)\n`,
    );
    return 2;
  }

  for (const renamed of decided.renamed) {
    io.stderr(`seam: ${escapeUntrusted(options.input, 200)}: ${quoteUntrusted(renamed.source)} is not a Seam name; written as ${escapeUntrusted(renamed.name, 120)}\n`);
  }
  for (const note of decided.notes) io.stderr(`seam: ${escapeUntrusted(options.input, 200)}: left out ${escapeUntrusted(note, 400)}\n`);
  if (options.out === undefined) {
    io.stdout(text);
  } else {
    try {
      await writeReplacing(resolve(io.cwd, options.out), text);
    } catch (error) {
      const { describeFsError } = await import("../fs-errors.js");
      reportProblem(io, { path: options.out, ...describeFsError(error) });
      return 2;
    }
  }
  const where = options.out === undefined ? "" : ` to ${escapeUntrusted(options.out, 200)}`;
  io.stderr(
    `seam: imported ${count(decided.agents.length, "agent")} and ${count(decided.edges.length, "edge")}${where}; ` +
      `${guesses} ${guesses === 1 ? "guess" : "guesses"} marked with seam-guess (seam check lists them; confirm each by deleting its comment)` +
      `${decided.notes.length === 0 ? "" : `; ${decided.notes.length} left out, listed above and at the top of the file`}\n`,
  );
  return 0;
}

/** The imported graph, or undefined when the input is unusable (already reported). */
async function readInput(options: ImportOptions, io: CliIo): Promise<{ graph: Extract<ImportResult, { ok: true }>["graph"] } | undefined> {
  const index = await import("../../import/index.js");
  const fail = (file: SourceFile | string, result: Extract<ImportResult, { ok: false }>): undefined => {
    const path = typeof file === "string" ? file : file.path;
    const at = result.problem.line === undefined ? "" : `:${result.problem.line}:${result.problem.column ?? 1}`;
    io.stderr(`seam: ${escapeUntrusted(path, 200)}${at}: ${escapeUntrusted(result.problem.message, 300)} (${result.problem.hint})\n`);
    return undefined;
  };
  if (options.format === "crewai") {
    if (options.run) return usage(io, "--run works with langgraph and openai-agents only");
    const files = await crewFiles(options.input, io);
    if (files === undefined) return undefined;
    const result = await index.importCrewAi({ ...files, process: options.process, manager: options.manager }, options.name ?? crewName(options.input));
    if (!result.ok) return fail("file" in result ? result.file : options.input, result);
    return { graph: result.graph };
  }
  let file: SourceFile;
  let name: string;
  if (options.run) {
    if (options.format !== "langgraph" && options.format !== "openai-agents") return usage(io, "--run works with langgraph and openai-agents only");
    const spec = splitSpec(options.input);
    if (spec === undefined) return usage(io, `with --run, the input is module:attribute (app.graph:graph, or ./graph.mjs:graph), not ${quoteUntrusted(options.input)}`);
    const dumped = await runHelper(options, io);
    if (dumped === undefined) return undefined;
    file = createSourceFile(`${options.input} (dumped)`, dumped);
    name = options.name ?? basename(spec.module, extname(spec.module)).split(".").pop() ?? spec.attribute;
  } else {
    const read = readSourceFile(options.input, io.cwd, { tooLargeHint: "a framework's graph is a few kilobytes; give the graph's JSON, not its data" });
    if (!read.ok) {
      reportProblem(io, read.problem);
      return undefined;
    }
    file = read.file;
    name = options.name ?? basename(options.input, extname(options.input));
  }
  const result = index.importFile(options.format, file, name);
  return result.ok ? { graph: result.graph } : fail(file, result);
}

function usage(io: CliIo, message: string): undefined {
  io.stderr(`seam: ${message} (see 'seam import --help')\n`);
  return undefined;
}

/** A crew's name: its folder's, or the folder above `config/`. */
function crewName(input: string): string {
  const dir = resolve(input);
  const base = basename(dir.endsWith(".yaml") || dir.endsWith(".yml") ? resolve(dir, "..") : dir);
  return base === "config" ? basename(resolve(dir, dir.endsWith(".yaml") || dir.endsWith(".yml") ? "../.." : "..")) : base;
}

/** `agents.yaml` and `tasks.yaml` of a crew: in the folder given, its `config/`, or beside the agents.yaml given. */
async function crewFiles(input: string, io: CliIo): Promise<{ agents: SourceFile; tasks: SourceFile } | undefined> {
  let folder = input;
  try {
    const info = await stat(resolve(io.cwd, input));
    if (info.isDirectory()) {
      const config = join(input, "config");
      folder = await access(resolve(io.cwd, config, "agents.yaml")).then(
        () => config,
        () => input,
      );
    } else folder = join(input, "..");
  } catch {
    // readSourceFile below reports what is wrong with the path.
  }
  const hint = "a crew's YAML is a few kilobytes";
  const agents = readSourceFile(join(folder, "agents.yaml"), io.cwd, { tooLargeHint: hint });
  if (!agents.ok) {
    reportProblem(io, { ...agents.problem, hint: `${agents.problem.hint}; give a crew folder holding agents.yaml and tasks.yaml` });
    return undefined;
  }
  const tasks = readSourceFile(join(folder, "tasks.yaml"), io.cwd, { tooLargeHint: hint });
  if (!tasks.ok) {
    reportProblem(io, tasks.problem);
    return undefined;
  }
  return { agents: agents.file, tasks: tasks.file };
}

/** Runs the helper of `options.format` on `module:attribute`; its stdout, or undefined (reported). */
async function runHelper(options: ImportOptions, io: CliIo): Promise<string | undefined> {
  const helpers = await import("../import-helpers.js");
  const runtime = helperRuntime(options.input);
  const spec = splitSpec(options.input) as { module: string; attribute: string };
  const program =
    options.format === "langgraph"
      ? runtime === "python" ? helpers.LANGGRAPH_PYTHON : helpers.LANGGRAPH_NODE
      : runtime === "python" ? helpers.OPENAI_AGENTS_PYTHON : helpers.OPENAI_AGENTS_NODE;
  const [command, args] =
    runtime === "python"
      ? [options.python, ["-c", program, options.input]]
      : [options.node, ["--input-type=module", "-e", program, "--", spec.module, spec.attribute]];
  return new Promise((done) => {
    execFile(command, args, { cwd: io.cwd, maxBuffer: MAX_SOURCE_BYTES, encoding: "utf8", windowsHide: true }, (error, stdout, stderr) => {
      if (error === null) {
        done(stdout);
        return;
      }
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === "ENOENT"
          ? `cannot run ${quoteUntrusted(command)}: not found (name your interpreter with --${runtime})`
          : code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER"
            ? `the helper printed more than the ${MAX_SOURCE_BYTES / (1024 * 1024)} MB limit`
            : `the helper could not load ${quoteUntrusted(options.input)}: ${escapeUntrusted(lastLine(stderr), 300)}`;
      io.stderr(`seam: ${why}\n`);
      done(undefined);
    });
  });
}

function lastLine(text: string): string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  return lines[lines.length - 1] ?? "it exited with an error";
}

/** `--check`: imports, then compares with the `.seam` file; prints findings in `--format`. */
async function driftCheck(options: ImportOptions, io: CliIo, source: string, text: string): Promise<number> {
  const [{ checkGraphFile, printDiagnosticsOnStderr }, { check }, { driftFindings }] = await Promise.all([
    import("../check-graph-file.js"),
    import("../../analysis/check.js"),
    import("../../import/drift.js"),
  ]);
  const seamPath = options.seam as string;
  const mine = await checkGraphFile(seamPath, io);
  if (mine === undefined) return 2;
  const syntax = mine.diagnostics.filter((d) => d.rule === "syntax");
  if (syntax.length > 0) {
    await printDiagnosticsOnStderr(syntax, io);
    io.stderr(`seam: ${escapeUntrusted(seamPath, 200)}: not compared because of syntax errors (fix them, then check again)\n`);
    return 2;
  }
  const code = check(createSourceFile(`${options.input} (imported)`, text));
  const codeGraph = code.graphs[0];
  if (codeGraph === undefined) throw new Error("internal: the imported graph did not check");
  const wanted = options.name;
  const graph =
    wanted !== undefined
      ? mine.graphs.find((g) => g.name === wanted)
      : mine.graphs.length === 1
        ? mine.graphs[0]
        : mine.graphs.find((g) => g.name === codeGraph.name);
  if (graph === undefined) {
    const names = mine.graphs.map((g) => g.name).join(", ");
    io.stderr(`seam: ${escapeUntrusted(seamPath, 200)}: ${wanted === undefined ? "holds several graphs" : `has no graph ${quoteUntrusted(wanted)}`} (name one with --name: ${escapeUntrusted(names, 300)})\n`);
    return 2;
  }
  const { sortDiagnostics } = await import("../../core/diagnostic.js");
  const findings = sortDiagnostics(driftFindings(source, { file: code.file, graph: codeGraph }, { file: mine.file, graph }));
  io.stdout(await formatFindings(findings, options.findings, io));
  return findings.length > 0 ? 1 : 0;
}

async function formatFindings(findings: readonly Diagnostic[], format: CheckFormat, io: CliIo): Promise<string> {
  switch (format) {
    case "pretty": {
      if (findings.length === 0) return "no drift: the framework's graph and the .seam graph have the same agents, edges, entries and ends\n";
      const { formatPretty } = await import("../format/pretty.js");
      return formatPretty(findings, { cwd: io.cwd, color: useColor(io), fileCount: 1 });
    }
    case "json": {
      const { formatJson } = await import("../format/json.js");
      return formatJson(findings, io.cwd);
    }
    case "github": {
      const { formatGithub } = await import("../format/github.js");
      return formatGithub(findings, io.cwd);
    }
    case "sarif": {
      const [{ formatSarif }, { DRIFT_RULES }, { docsPageUrl, packageVersion }] = await Promise.all([
        import("../format/sarif.js"),
        import("../../import/drift.js"),
        import("../../core/package-files.js"),
      ]);
      return formatSarif(findings, {
        cwd: io.cwd,
        rules: DRIFT_RULES,
        version: packageVersion(),
        command: "seam import --check",
        helpUri: () => docsPageUrl("import.md#drift-seam-import---check"),
      });
    }
  }
}
