/**
 * The `seam` command line (docs/cli.md), as a function from arguments to an exit code,
 * so tests drive it in-process with a fake {@link CliIo}.
 *
 * Start-up time is a feature: this module loads only commander and a few small helpers; each
 * command's module (and through it the parser, Ajv, Graphviz...) is imported when that command
 * runs.
 *
 * Exit codes: 0 success, 1 problems found (diagnostics with errors, rejected envelopes),
 * 2 usage error, unreadable input or an internal error.
 */
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from "commander";
import type { CompileTarget } from "../emit/compile-output.js";
import {
  CHECK_FORMATS,
  CREW_PROCESSES,
  DIFF_FAIL_ON,
  GRAPH_FORMATS,
  IMPORT_FORMATS,
  REPORT_FORMATS,
  VALIDATE_FORMATS,
  type CheckFormat,
  type DiffFailOn,
  type GraphFormat,
  type ImportSourceFormat,
  type ReportFormat,
  type ValidateFormat,
} from "./formats.js";
import type { CliIo } from "./io.js";
import { packageVersion } from "../core/package-files.js";
import { escapeUntrusted } from "../core/untrusted-text.js";
import { PROBLEM_PART_LIMIT } from "./report-problem.js";

/** Exit code of a usage error, unreadable input or an internal error. */
export const EXIT_USAGE = 2;

/**
 * Parses `argv` (the arguments after `seam`), runs the command and returns its exit code. Never
 * throws: a usage error prints one line on stderr and returns 2; an exception from Seam itself
 * (a bug) prints a short report (the stack only when `SEAM_DEBUG=1`) and returns 2.
 *
 * @param argv - arguments without the node binary and script, e.g. `["check", "examples"]`
 * @param io - where output goes, the working folder and the environment
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  try {
    const program = createProgram(
      io,
      (code) => {
        exitCode = code;
      },
      argv,
    );
    await program.parseAsync([...argv], { from: "user" });
    return exitCode;
  } catch (error) {
    // `--help` and `--version` end with a CommanderError whose exit code is 0.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_USAGE;
    return reportInternalError(error, io);
  }
}

/**
 * The commander program of `seam`: every command with its arguments and options. Exported so the
 * docs tests can list each command's options from the definition itself.
 *
 * @param io - where output goes
 * @param setExitCode - receives the exit code of the command that ran
 * @param argv - the arguments it will parse: when the first names a command, only that command is defined
 */
export function createProgram(io: CliIo, setExitCode: (code: number) => void, argv?: readonly string[]): Command {
  // Commander needs only the command that runs: `seam check a.seam` defines no other, which would
  // cost every start-up about 0.7 ms. When the first argument names no command (help, --version,
  // a typo), every command is defined, for the help and the suggestions.
  const first = argv?.[0];
  if (first !== undefined) {
    const only = defineProgram(io, setExitCode, (name) => name === first);
    if (only.commands.length === 1) return only;
  }
  return defineProgram(io, setExitCode, () => true);
}

/** The program with the commands that `wanted` names. */
function defineProgram(io: CliIo, setExitCode: (code: number) => void, wanted: (command: string) => boolean): Command {
  const program = new Command("seam")
    .description("Check, compile and draw the handoff graphs between AI agents.")
    .version(packageVersion(), "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .showSuggestionAfterError(true)
    .addHelpText("after", "\nExit codes: 0 success, 1 problems found, 2 usage error or unreadable input.");
  configure(program, io);

  if (wanted("check")) {
    const check = program
      .command("check")
      .description("lint .seam files (folders are searched for *.seam)")
      .argument("<paths...>", "files or folders")
      .addOption(new Option("--format <format>", "output format").choices(CHECK_FORMATS).default("pretty"))
      .addOption(new Option("--max-warnings <n>", "exit 1 when there are more warnings than n").argParser(parseWholeNumber))
      .action(async (paths: string[], options: { format: CheckFormat; maxWarnings?: number }) => {
        const { checkCommand } = await import("./commands/check.js");
        setExitCode(
          await checkCommand(
            { paths, format: options.format, ...(options.maxWarnings === undefined ? {} : { maxWarnings: options.maxWarnings }) },
            io,
          ),
        );
      });
    configure(check, io);
  }

  if (wanted("compile")) {
    const compile = program
      .command("compile")
      .description("write the JSON Schemas, validator module and pictures of a graph")
      .argument("<file>", "a .seam file")
      .addOption(new Option("--out <dir>", "folder to write into").makeOptionMandatory().argParser(parseFolder))
      .addOption(
        new Option("--target <language>", "validator modules to write: js (default), python; repeat or separate with commas").argParser(
          parseTargets,
        ),
      )
      .addOption(new Option("--vendor-runtime", "with --target python: also write the Python runtime package (seam_handoff/) into the folder"))
      .addOption(new Option("--pydantic", "with --target python: also write <graph>_models.py, strict pydantic v2 models of the edges"))
      .action(async (file: string, options: { out: string; target?: CompileTarget[]; vendorRuntime?: boolean; pydantic?: boolean }) => {
        const { compileCommand } = await import("./commands/compile.js");
        setExitCode(
          await compileCommand(
            { file, out: options.out, targets: options.target ?? ["js"], vendorRuntime: options.vendorRuntime === true, pydantic: options.pydantic === true },
            io,
          ),
        );
      });
    configure(compile, io);
  }

  if (wanted("validate")) {
    const validate = program
      .command("validate")
      .description("check handoff envelopes against a graph, as the receiving agent would")
      .argument("<envelopes...>", "envelope JSON files, checked in order; .jsonl files (one envelope per line) are replayed")
      .requiredOption("--graph <file>", "the .seam file")
      .requiredOption("--as <agent>", "the receiving agent ('*': each envelope's to_agent)")
      .option("--name <graph>", "which graph, when the file holds several")
      .addOption(new Option("--format <format>", "output format").choices(VALIDATE_FORMATS).default("pretty"))
      .action(async (envelopes: string[], options: { graph: string; as: string; name?: string; format: ValidateFormat }) => {
        const { validateCommand } = await import("./commands/validate.js");
        setExitCode(
          await validateCommand(
            {
              envelopes,
              graph: options.graph,
              as: options.as,
              format: options.format,
              ...(options.name === undefined ? {} : { name: options.name }),
            },
            io,
          ),
        );
      });
    configure(validate, io);
  }

  if (wanted("diff")) {
    const diff = program
      .command("diff")
      .description("compare the handoff contracts of two versions: what breaks if the agents deploy apart")
      .argument("[paths...]", "<old.seam> <new.seam>, or with --against: files or folders (default .)")
      .option("--against <ref>", "compare the work tree with this git ref (repeat for every version still in flight)", collect)
      .addOption(new Option("--format <format>", "output format").choices(CHECK_FORMATS).default("pretty"))
      .addOption(new Option("--fail-on <level>", "what makes the exit code 1").choices(DIFF_FAIL_ON).default("breaking"))
      .action(async (paths: string[], options: { against?: string[]; format: CheckFormat; failOn: DiffFailOn }) => {
        const { diffCommand } = await import("./commands/diff.js");
        setExitCode(await diffCommand({ paths, against: options.against ?? [], format: options.format, failOn: options.failOn }, io));
      });
    configure(diff, io);
  }

  if (wanted("graph")) {
    const graph = program
      .command("graph")
      .description("draw a graph (diagnostics marked) on stdout")
      .argument("<file>", "a .seam file")
      .addOption(new Option("--format <format>", "picture format").choices(GRAPH_FORMATS).default("mermaid"))
      .option("--name <graph>", "which graph, when the file holds several")
      .action(async (file: string, options: { format: GraphFormat; name?: string }) => {
        const { graphCommand } = await import("./commands/graph.js");
        setExitCode(
          await graphCommand({ file, format: options.format, ...(options.name === undefined ? {} : { name: options.name }) }, io),
        );
      });
    configure(graph, io);
  }

  if (wanted("import")) {
    const importGraph = program
      .command("import")
      .description("write the .seam graph of a LangGraph, Agents SDK, AutoGen, CrewAI, Step Functions or Mermaid graph; --check: the drift between them")
      .addArgument(new Argument("<format>", "what the input is").choices(IMPORT_FORMATS))
      .argument("<input>", "the framework's graph file (crewai: the crew folder); with --run, module:attribute")
      .argument("[seam]", "with --check: the .seam file to compare with")
      .option("--out <file>", "write the .seam file here instead of stdout")
      .option("--check", "compare with the .seam file: exit 1 on any agent, edge, entry or end only one of them has", false)
      .option("--name <graph>", "the graph's name (default: the input's); with --check, which graph of the file")
      .option("--run", "langgraph, openai-agents: load module:attribute with your own Python or Node (runs your code)", false)
      .option("--python <exe>", "the Python that --run uses", "python3")
      .option("--node <exe>", "the Node that --run uses for a .js/.mjs module (default: the Node running seam)")
      .addOption(new Option("--process <process>", "crewai: how the crew runs its tasks").choices(CREW_PROCESSES).default("sequential"))
      .option("--manager <name>", "crewai, hierarchical: the manager agent's name", "manager")
      .addOption(new Option("--format <format>", "output format of --check findings").choices(CHECK_FORMATS).default("pretty"))
      .action(
        async (
          format: ImportSourceFormat,
          input: string,
          seam: string | undefined,
          options: {
            out?: string;
            check: boolean;
            name?: string;
            run: boolean;
            python: string;
            node?: string;
            process: "sequential" | "hierarchical";
            manager: string;
            format: CheckFormat;
          },
        ) => {
          const { importCommand } = await import("./commands/import.js");
          setExitCode(
            await importCommand(
              {
                format,
                input,
                check: options.check,
                run: options.run,
                python: options.python,
                node: options.node ?? process.execPath,
                process: options.process,
                manager: options.manager,
                findings: options.format,
                ...(seam === undefined ? {} : { seam }),
                ...(options.out === undefined ? {} : { out: options.out }),
                ...(options.name === undefined ? {} : { name: options.name }),
              },
              io,
            ),
          );
        },
      );
    configure(importGraph, io);
  }

  if (wanted("fmt")) {
    const fmt = program
      .command("fmt")
      .description("format .seam files in the canonical layout (folders are searched for *.seam)")
      .argument("[paths...]", "files or folders")
      .option("--check", "change nothing; list the files that would change and exit 1 if any", false)
      .option("--stdin", "format standard input to standard output", false)
      .action(async (paths: string[], options: { check: boolean; stdin: boolean }) => {
        const { fmtCommand } = await import("./commands/fmt.js");
        setExitCode(await fmtCommand({ paths, check: options.check, stdin: options.stdin }, io));
      });
    configure(fmt, io);
  }

  if (wanted("report")) {
    const report = program
      .command("report")
      .description("summarise handoff event logs: latency, size per hop, hops per task, rejections, statuses, versions")
      .argument("<logs...>", "handoff event logs (JSON Lines)")
      .option("--html <file>", "also write the report as one self-contained HTML page")
      .addOption(new Option("--format <format>", "terminal output format").choices(REPORT_FORMATS).default("pretty"))
      .action(async (logs: string[], options: { html?: string; format: ReportFormat }) => {
        const { reportCommand } = await import("./commands/report.js");
        setExitCode(await reportCommand({ logs, format: options.format, ...(options.html === undefined ? {} : { html: options.html }) }, io));
      });
    configure(report, io);
  }

  if (wanted("lsp")) {
    const lsp = program
      .command("lsp")
      .description("run the language server on stdin/stdout (for editors)")
      .option("--stdio", "talk over stdin and stdout (the default and only transport)")
      .action(async () => {
        const { lspCommand } = await import("./commands/lsp.js");
        lspCommand();
      });
    configure(lsp, io);
  }

  return program;
}

/** Routes a command's output to `io`, makes errors throw instead of exiting, and keeps them to one line. */
function configure(command: Command, io: CliIo): void {
  const name = command.parent ? `seam ${command.name()}` : "seam";
  command.exitOverride().configureOutput({
    writeOut: (text) => io.stdout(text),
    writeErr: (text) => io.stderr(text),
    outputError: (text) => {
      // Commander quotes the arguments it refuses, which are the user's (or a script's) own text.
      const message = escapeUntrusted(text.replace(/^error: /, "").replace(/\s*\n\s*/g, " ").trim(), PROBLEM_PART_LIMIT);
      const hint = message.includes("(Did you mean") ? "" : ` (see '${name} --help')`;
      io.stderr(`seam: ${message}${hint}\n`);
    },
  });
}

function parseFolder(value: string): string {
  if (value === "") throw new InvalidArgumentError("Expected a folder, not an empty string.");
  return value;
}

const TARGETS: readonly CompileTarget[] = ["js", "python"];

/** `--target js,python` and repeated `--target`: the union, in the order first named. */
function parseTargets(value: string, previous: CompileTarget[] | undefined): CompileTarget[] {
  const targets = [...(previous ?? [])];
  for (const name of value.split(",").map((part) => part.trim())) {
    if (!(TARGETS as readonly string[]).includes(name)) {
      throw new InvalidArgumentError(`Expected js or python (repeat --target or separate with commas), not ${JSON.stringify(name)}.`);
    }
    if (!targets.includes(name as CompileTarget)) targets.push(name as CompileTarget);
  }
  return targets;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function parseWholeNumber(value: string): number {
  if (!/^[0-9]+$/.test(value)) throw new InvalidArgumentError("Expected a whole number, 0 or more.");
  return Number(value);
}

function reportInternalError(error: unknown, io: CliIo): number {
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(
    `seam: internal error: ${message}\n` +
      `This is a bug in seam, not in your input; please report it with the command and the file that caused it.\n`,
  );
  if (io.env["SEAM_DEBUG"] === "1") {
    io.stderr(`${error instanceof Error && error.stack ? error.stack : message}\n`);
  } else {
    io.stderr("Run again with SEAM_DEBUG=1 to print the stack trace.\n");
  }
  return EXIT_USAGE;
}
