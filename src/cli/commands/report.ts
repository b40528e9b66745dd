/**
 * `seam report <events.jsonl...> [--html <file>] [--format pretty|json]`: reads handoff event
 * logs (docs/handoff-events.md) and prints the handoff metrics: latency, envelope size per hop,
 * hops per task against the hop limit, rejection rate by producer and field, status per edge,
 * and the envelope versions in flight; `--html` also writes them as one self-contained page.
 *
 * Logs are streamed line by line in bounded memory (see `read-lines.ts` and
 * `report/handoff-report.ts`). Blank lines and JSON objects whose `event` is not
 * `"seam.handoff"` (other records of a shared log) are skipped.
 *
 * A log is a regular file or a named pipe; a device (`/dev/zero`) is refused unread, as every
 * command refuses one (`open-log.ts`).
 *
 * Exit codes: 0 every line was read; 2 a file could not be read or is a device, a line was not a handoff event
 * of a known version (each named `file:line`, or `file:line:column` where the fault has a place:
 * JSON syntax, a key given twice; on stderr, the first {@link MAX_LINE_PROBLEMS}),
 * or the page could not be written or is one of the logs (then nothing is read). The report
 * still covers every line that could be read.
 */
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { formatReportHtml } from "../../report/report-html.js";
import { createReportBuilder } from "../../report/handoff-report.js";
import { readEventLine } from "../../report/read-event.js";
import { formatReportPretty } from "../format/report-pretty.js";
import type { ReportFormat } from "../formats.js";
import { describeFsError } from "../fs-errors.js";
import { describeLogError } from "../open-log.js";
import type { CliIo } from "../io.js";
import { readLines } from "../read-lines.js";
import { PROBLEM_PART_LIMIT, reportProblem } from "../report-problem.js";
import { writeReplacing } from "../write-replacing.js";
import { escapeUntrusted, stringifyUntrusted } from "../../core/untrusted-text.js";

/** Options of {@link reportCommand}, as parsed from the command line. */
export interface ReportOptions {
  /** Event log files (JSON Lines), read in order; relative to `io.cwd` or absolute. */
  readonly logs: readonly string[];
  /** Where to write the HTML page, if anywhere. */
  readonly html?: string;
  readonly format: ReportFormat;
}

/** The most bad lines named on stderr; the rest are counted. */
export const MAX_LINE_PROBLEMS = 20;

/** Runs `seam report`; returns the exit code (0 or 2). */
export async function reportCommand(options: ReportOptions, io: CliIo): Promise<number> {
  if (options.html !== undefined) {
    const log = await logAtPage(options.html, options.logs, io.cwd);
    if (log !== undefined) {
      // reportProblem escapes and bounds the whole line, the log's name in it included.
      const problem = `is the event log ${log}, which --html would overwrite`;
      reportProblem(io, { path: options.html, problem, hint: "write the page to another file" });
      return 2;
    }
  }
  const builder = createReportBuilder();
  let badLines = 0;
  let unreadable = false;
  let readAny = false;
  for (const file of options.logs) {
    const problem = (line: number, what: string, column?: number): void => {
      badLines++;
      if (badLines <= MAX_LINE_PROBLEMS) io.stderr(`seam: ${escapeUntrusted(file, PROBLEM_PART_LIMIT)}:${line}${column === undefined ? "" : `:${column}`}: ${what} (fix or remove the line)\n`);
    };
    try {
      await readLines(resolve(io.cwd, file), {
        line(number, text) {
          if (text.trim() === "") return;
          const read = readEventLine(text);
          if (read.kind === "event") builder.add(read.event);
          else if (read.kind === "bad") problem(number, read.problem, read.column);
        },
        bad: problem,
      });
      readAny = true;
    } catch (error) {
      reportProblem(io, { path: file, ...describeLogError(error) });
      unreadable = true;
    }
  }
  if (badLines > MAX_LINE_PROBLEMS) io.stderr(`seam: ${badLines - MAX_LINE_PROBLEMS} more bad lines not shown\n`);
  // No log could be read: a report of nothing would read as a quiet system.
  if (!readAny) return 2;

  const report = builder.finish();
  io.stdout(options.format === "json" ? `${stringifyUntrusted(report, 2)}\n` : formatReportPretty(report));
  if (badLines > 0) io.stderr(`seam: ${badLines} line${badLines === 1 ? "" : "s"} could not be read; the report covers the other lines\n`);
  if (options.html !== undefined) {
    try {
      await writeReplacing(resolve(io.cwd, options.html), formatReportHtml(report, options.logs));
    } catch (error) {
      reportProblem(io, { path: options.html, ...describeFsError(error, "write") });
      return 2;
    }
  }
  return unreadable || badLines > 0 ? 2 : 0;
}

/**
 * The log among `logs` that the page at `html` would replace, if any: the same file once links
 * are followed (the same name, a hard link, a name through a linked folder), compared by device
 * and inode, so that `--html` can never write over the data it reports on. Names that cannot be
 * read are no match (reading them reports the problem).
 */
async function logAtPage(html: string, logs: readonly string[], cwd: string): Promise<string | undefined> {
  const page = await stat(resolve(cwd, html)).catch(() => undefined);
  if (page === undefined) return undefined;
  for (const log of logs) {
    const read = await stat(resolve(cwd, log)).catch(() => undefined);
    if (read !== undefined && read.dev === page.dev && read.ino === page.ino) return log;
  }
  return undefined;
}
