/**
 * `seam validate <envelope.json...> --graph <file> [--name <graph>] --as <agent> [--format pretty|json]`
 * (docs/cli.md): runs the graph's `accept()` on each envelope file in order, as the
 * receiving agent would at ingest, with one in-memory duplicate/ownership store for the run.
 * Each envelope is first read as a service reads it, by the runtime's `parseEnvelope`
 * (`parse-envelope-text.ts`): one past its size limit (`envelope-too-large`, 1 MiB) or with a key
 * twice in one object (`duplicate-key`) is rejected, route `repair`, before `accept()` sees it.
 * The graph is compiled in memory by the same code as the emitted module's validators.
 *
 * Exit codes: 0 every envelope accepted, 1 some envelope not accepted: rejected, or a duplicate
 * (exit 1 when an envelope is not taken; the summary counts duplicates apart),
 * 2 an unreadable or non-JSON envelope file, an unreadable graph, a graph with errors, a file
 * of several graphs without `--name` (or a `--name` it lacks), or an `--as` agent the graph
 * lacks (each a line on stderr; the other envelopes are still checked).
 */
import { checkGraphFile, printDiagnosticsOnStderr } from "../check-graph-file.js";
import type { CheckedGraph } from "../../analysis/model.js";
import { createGraphAccept } from "../../emit/graph-accept.js";
import type { AcceptResult } from "../../runtime/accept.js";
import type { Reason } from "../../runtime/reason.js";
import { createMemorySeenStore } from "../../runtime/seen-store.js";
import { escapeUntrusted, QUOTE_LIMIT, stringifyUntrusted } from "../../core/untrusted-text.js";
import { getShownLineAndColumn } from "../../core/source-file.js";
import type { ValidateFormat } from "../formats.js";
import type { CliIo } from "../io.js";
import { parseEnvelopeText } from "../parse-envelope-text.js";
import { pickGraph } from "../pick-graph.js";
import { ENVELOPE_TOO_LARGE_HINT, readSourceFile } from "../read-source-file.js";
import { PROBLEM_PART_LIMIT, reportProblem } from "../report-problem.js";
import { formatReplay, isJsonLines, receiverOf, replayFiles } from "../replay.js";

/** Options of {@link validateCommand}, as parsed from the command line. */
export interface ValidateOptions {
  /** Envelope JSON files, checked in this order; relative to `io.cwd` or absolute. */
  readonly envelopes: readonly string[];
  /** The `.seam` file. */
  readonly graph: string;
  /** The receiving agent's id, or `*` for each envelope's `to_agent.id`. */
  readonly as: string;
  /** The graph to check against; required when the file holds several. */
  readonly name?: string;
  readonly format: ValidateFormat;
}

/** The verdict on one file, as `--format json` prints it. */
export interface ValidateVerdict {
  readonly file: string;
  readonly ok: boolean;
  readonly duplicate: boolean;
  /** Where the envelope goes: the record's route when accepted, the rejection's otherwise. */
  readonly route: string;
  /** For a refusal the store counted: which refusal of the task's hop it was (1 for the first). */
  readonly attempt?: number;
  readonly reasons: readonly Reason[];
  readonly warnings: readonly Reason[];
}

/** Runs `seam validate`; returns the exit code (0, 1 or 2). */
export async function validateCommand(options: ValidateOptions, io: CliIo): Promise<number> {
  const result = await checkGraphFile(options.graph, io);
  if (result === undefined) return 2;
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    await printDiagnosticsOnStderr(errors, io);
    io.stderr(`seam: ${escapeUntrusted(options.graph, PROBLEM_PART_LIMIT)}: the graph has errors, so envelopes cannot be checked against it (run seam check)\n`);
    return 2;
  }
  const graph = graphFor(result.graphs, options, io);
  if (graph === undefined) return 2;

  const { accept } = createGraphAccept(graph, { anyReceiver: options.as === "*" });
  // As one agent, the run is that agent's service, which sees only the hops addressed to it; as
  // '*', the whole graph, whose ledger sees every hop (a task starts at hop 1).
  const seen = createMemorySeenStore({ scope: options.as === "*" ? "graph" : "receiver" });
  const verdicts: ValidateVerdict[] = [];
  let unreadable = false;
  for (const file of options.envelopes.filter((path) => !isJsonLines(path))) {
    const text = readSourceFile(file, io.cwd, { tooLargeHint: ENVELOPE_TOO_LARGE_HINT });
    if (!text.ok) {
      reportProblem(io, text.problem);
      unreadable = true;
      continue;
    }
    const read = parseEnvelopeText(text.file.text);
    if (read.kind === "not-json") {
      const { line, column } = getShownLineAndColumn(text.file, read.offset);
      reportProblem(io, { path: `${file}:${line}:${column}`, problem: `is not valid JSON: ${read.problem}`, hint: "fix the file" });
      unreadable = true;
      continue;
    }
    // Refused before accept() runs, as a service refuses it, so a smuggling attempt (a key
    // twice) is not recorded as seen either; the producer has to repair it.
    if (read.kind === "refused") {
      verdicts.push({ file, ok: false, duplicate: false, route: "repair", reasons: read.reasons, warnings: [] });
      continue;
    }
    const me = options.as === "*" ? receiverOf(read.envelope) : options.as;
    verdicts.push(toVerdict(file, accept(read.envelope, { me, seen })));
  }

  // JSON Lines files are replayed: counted by edge and rule, in bounded memory (`replay.ts`).
  const logs = options.envelopes.filter(isJsonLines);
  const replay = logs.length > 0 ? await replayFiles(logs, io.cwd, accept, options.as, io) : undefined;
  if (options.format === "json") {
    io.stdout(`${stringifyUntrusted(replay ? { files: verdicts, replay: replay.summary } : verdicts, 2)}\n`);
  } else {
    io.stdout(formatVerdicts(verdicts) + (replay ? formatReplay(replay.summary) : ""));
  }
  if (unreadable || replay?.unusable === true) return 2;
  return verdicts.every((v) => v.ok) && (replay?.summary.refused ?? 0) === 0 ? 0 : 1;
}

/** The graph named by `--name` (or the only one), which must have the `--as` agent unless it is `*`. */
function graphFor(graphs: readonly CheckedGraph[], options: ValidateOptions, io: CliIo): CheckedGraph | undefined {
  const picked = pickGraph(graphs, options.graph, options.name);
  if (!picked.ok) {
    reportProblem(io, picked.problem);
    return undefined;
  }
  const { graph } = picked;
  if (options.as !== "*" && !graph.agents.some((a) => a.id === options.as)) {
    reportProblem(io, {
      path: options.graph,
      problem: `graph ${graph.name} has no agent '${options.as}'`,
      hint: `pass --as one of: ${graph.agents.map((a) => a.id).join(", ")}, or '*'`,
    });
    return undefined;
  }
  return graph;
}

function toVerdict(file: string, result: AcceptResult): ValidateVerdict {
  return result.ok
    ? { file, ok: true, duplicate: false, route: result.record.route, reasons: [], warnings: result.record.warnings }
    : {
        file,
        ok: false,
        duplicate: result.duplicate,
        route: result.rejection.route,
        ...(result.rejection.attempt === null ? {} : { attempt: result.rejection.attempt }),
        reasons: result.rejection.reasons,
        warnings: [],
      };
}

/** Pointers name envelope fields, so they may hold any text: shown escaped and cut, like quoted values. */
function formatReasons(label: string, reasons: readonly Reason[]): string {
  return reasons.map((r) => `  ${label} ${escapeUntrusted(r.path, QUOTE_LIMIT) || "/"} ${r.rule}: ${escapeUntrusted(r.message)}\n`).join("");
}

/**
 * One block per file (the verdict line, then one line per reason or warning) and a summary
 * `N envelopes: A accepted, D duplicate, R rejected`; nothing at all when no file could be read.
 */
function formatVerdicts(verdicts: readonly ValidateVerdict[]): string {
  let out = "";
  for (const v of verdicts) {
    const verdict = v.ok ? "accepted" : v.duplicate ? "duplicate" : "rejected";
    const attempt = v.attempt === undefined ? "" : `, attempt ${v.attempt}`;
    out += `${escapeUntrusted(v.file)}: ${verdict} (route ${v.route}${attempt})\n`;
    out += formatReasons("error", v.reasons);
    out += formatReasons("warning", v.warnings);
  }
  if (verdicts.length === 0) return out;
  const accepted = verdicts.filter((v) => v.ok).length;
  const duplicates = verdicts.filter((v) => v.duplicate).length;
  const rejected = verdicts.length - accepted - duplicates;
  const counts = `${accepted} accepted, ${duplicates} duplicate, ${rejected} rejected`;
  // A duplicate is not the producer's error, but it is not accepted either: it counts for exit 1.
  const note = duplicates > 0 ? " (a duplicate is not accepted a second time)" : "";
  out += `${verdicts.length} envelope${verdicts.length === 1 ? "" : "s"}: ${counts}${note}\n`;
  return out;
}
