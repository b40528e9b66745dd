/**
 * Replay before rollout: recorded envelopes (JSON Lines, one envelope per line, as services log
 * them) run through the new graph's `accept()`, and the ones it would now refuse are counted by
 * edge and rule, with a few examples each. Each line is read as a service reads a body
 * (`parse-envelope-text.ts`: the size limit and duplicate keys of `parseEnvelope`), so the replay
 * refuses what production refuses, for the same reason. Memory stays bounded whatever the log's
 * size: lines are streamed (`json-lines.ts`), each envelope is judged on its own (no duplicate
 * memory: a replay asks about contracts, not about deliveries), and the report keeps at most
 * {@link MAX_GROUPS} groups of {@link MAX_EXAMPLES} examples.
 */
import { quoteUntrusted } from "../core/untrusted-text.js";
import type { Accept } from "../runtime/accept.js";
import type { Reason } from "../runtime/reason.js";
import type { CliIo } from "./io.js";
import { reportProblem } from "./report-problem.js";
import { readJsonLines, type JsonLine, type JsonLinesOptions } from "./json-lines.js";
import { describeLogError } from "./open-log.js";
import { parseEnvelopeText } from "./parse-envelope-text.js";

/** Most (edge, rule) groups kept; envelopes past it are counted under {@link OTHER_EDGES}. */
export const MAX_GROUPS = 200;
/** Examples (file and line) kept per group. */
export const MAX_EXAMPLES = 3;
/** The edge label of the group that holds what did not fit in {@link MAX_GROUPS}. */
export const OTHER_EDGES = "(other edges)";

/** Where a recorded envelope was. */
export interface LineRef {
  readonly file: string;
  readonly line: number;
  /** The 1-based column (UTF-16 code units), for a problem at one place in the line. */
  readonly column?: number;
}

/** The envelopes refused on one edge for one rule. */
export interface ReplayGroup {
  /** `from -> to`, as the envelopes name them (quoted when not a plain id). */
  readonly edge: string;
  readonly rule: string;
  /** Envelopes refused on this edge with this rule among their reasons. */
  count: number;
  readonly examples: LineRef[];
}

/** The result of a replay. */
export interface ReplaySummary {
  envelopes: number;
  accepted: number;
  refused: number;
  /** Lines that are not JSON or are too long; each was reported through `onBadLine`. */
  unreadable: number;
  readonly groups: ReplayGroup[];
}

/** Options of {@link replayJsonLines}. */
export interface ReplayOptions {
  /** The receiving agent, or `*` for each envelope's `to_agent.id`. */
  readonly as: string;
  /** Called once per unusable line with a one-line reason. */
  readonly onBadLine: (at: LineRef, problem: string) => void;
  /** Passed to the line reader (tests bound what it buffers). */
  readonly lines?: JsonLinesOptions;
}

/** An empty summary, for {@link replayJsonLines} to fill. */
export function emptySummary(): ReplaySummary {
  return { envelopes: 0, accepted: 0, refused: 0, unreadable: 0, groups: [] };
}

/**
 * Replays one JSON Lines file into `summary`.
 * @throws the `node:fs` error when the file cannot be read
 */
export async function replayJsonLines(file: string, cwd: string, accept: Accept, options: ReplayOptions, summary: ReplaySummary): Promise<void> {
  const index = new Map(summary.groups.map((g) => [`${g.edge}\0${g.rule}`, g]));
  // Decided once per file, not once per line: whether each envelope names its own receiver.
  const as = options.as === "*" ? undefined : options.as;
  for await (const batch of readJsonLines(file, cwd, options.lines)) {
    for (let i = 0; i < batch.length; i++) replayLine(file, batch[i] as JsonLine, accept, as, options, summary, index);
  }
}

/**
 * Judges one line of a replayed file into `summary` (`as`: the receiver, or `undefined` for each
 * envelope's own; `index`: its groups by edge and rule). The line's place is built only for a
 * line that is reported or kept as an example: most lines are accepted and need none.
 */
function replayLine(
  file: string,
  entry: JsonLine,
  accept: Accept,
  as: string | undefined,
  options: ReplayOptions,
  summary: ReplaySummary,
  index: Map<string, ReplayGroup>,
): void {
  if (!("text" in entry)) {
    summary.unreadable++;
    if ("tooLong" in entry) options.onBadLine({ file, line: entry.line }, "is longer than the 10 MB a replay reads (a service refuses an envelope past 1 MiB)");
    else options.onBadLine({ file, line: entry.line, column: entry.column }, entry.notUtf8);
    return;
  }
  const read = parseEnvelopeText(entry.text);
  if (read.kind === "not-json") {
    summary.unreadable++;
    options.onBadLine({ file, line: entry.line, column: read.offset + 1 }, `is not valid JSON: ${read.problem}`);
    return;
  }
  summary.envelopes++;
  const envelope = read.envelope;
  const rules = read.kind === "refused" ? distinctRules(read.reasons) : refusedRules(accept(envelope, { me: as ?? receiverOf(envelope) }));
  if (rules.length === 0) {
    summary.accepted++;
    return;
  }
  summary.refused++;
  const at = { file, line: entry.line };
  const edge = `${label(idOf(envelope, "from_agent"))} -> ${label(idOf(envelope, "to_agent"))}`;
  for (const rule of rules) {
    let group = index.get(`${edge}\0${rule}`) ?? index.get(`${OTHER_EDGES}\0${rule}`);
    if (group === undefined) {
      group = { edge: summary.groups.length < MAX_GROUPS ? edge : OTHER_EDGES, rule, count: 0, examples: [] };
      summary.groups.push(group);
      index.set(`${group.edge}\0${rule}`, group);
    }
    group.count++;
    if (group.examples.length < MAX_EXAMPLES) group.examples.push(at);
  }
}

/** The distinct rules of a refusal, in the order given; none when accepted. */
function refusedRules(result: ReturnType<Accept>): string[] {
  return result.ok ? [] : distinctRules(result.rejection.reasons);
}

function distinctRules(reasons: readonly Reason[]): string[] {
  return [...new Set(reasons.map((r) => r.rule))];
}

/** `envelope[side].id` when it is a string, else `undefined`. */
function idOf(envelope: unknown, side: "from_agent" | "to_agent"): string | undefined {
  if (typeof envelope !== "object" || envelope === null) return undefined;
  const agent = (envelope as Record<string, unknown>)[side];
  const id = typeof agent === "object" && agent !== null ? (agent as Record<string, unknown>)["id"] : undefined;
  return typeof id === "string" ? id : undefined;
}

/**
 * The receiver of an envelope replayed with `--as '*'`: its `to_agent.id` when that is a non-empty
 * string; otherwise `*`, an id no agent has, so that the envelope is refused (as addressed to no
 * agent of the graph) and the replay goes on.
 */
export function receiverOf(envelope: unknown): string {
  const id = idOf(envelope, "to_agent");
  return id !== undefined && id !== "" ? id : "*";
}

/** A plain agent id as it is; anything else (from an untrusted envelope) quoted, escaped and bounded; `(no id)` for none. */
function label(id: string | undefined): string {
  if (id === undefined) return "(no id)";
  return /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/.test(id) ? id : quoteUntrusted(id);
}

/** The replay as text: a summary line, then each group with its examples. */
export function formatReplay(summary: ReplaySummary): string {
  const groups = [...summary.groups].sort((a, b) => (a.edge < b.edge ? -1 : a.edge > b.edge ? 1 : a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
  // Lines that could not be read are named one by one on stderr; the summary counts them too.
  const unread = summary.unreadable === 0 ? "" : `; ${summary.unreadable} line${summary.unreadable === 1 ? "" : "s"} not read (named above)`;
  let out = `replay: ${summary.envelopes} recorded envelope${summary.envelopes === 1 ? "" : "s"}: ${summary.accepted} accepted, ${summary.refused} refused by this graph${unread}\n`;
  let edge = "";
  for (const g of groups) {
    if (g.edge !== edge) out += `  ${(edge = g.edge)}\n`;
    const more = g.count > g.examples.length ? ", ..." : "";
    out += `    ${g.rule}: ${g.count} envelope${g.count === 1 ? "" : "s"} (${g.examples.map((e) => `${e.file}:${e.line}`).join(", ")}${more})\n`;
  }
  return out;
}

/** Whether a path names a JSON Lines file (`.jsonl`, `.ndjson`), which `seam validate` replays. */
export function isJsonLines(path: string): boolean {
  return /\.(jsonl|ndjson)$/i.test(path);
}

/**
 * Replays every JSON Lines file in order, reporting each unreadable file or line on stderr as
 * `seam: file:line: problem (hint)`.
 * @returns the summary, and whether some input could not be used (exit 2)
 */
export async function replayFiles(files: readonly string[], cwd: string, accept: Accept, as: string, io: CliIo): Promise<{ summary: ReplaySummary; unusable: boolean }> {
  const summary = emptySummary();
  let unusable = false;
  const onBadLine = (at: LineRef, problem: string): void => {
    reportProblem(io, { path: `${at.file}:${at.line}${at.column === undefined ? "" : `:${at.column}`}`, problem, hint: "one envelope per line, as JSON" });
  };
  for (const file of files) {
    try {
      await replayJsonLines(file, cwd, accept, { as, onBadLine }, summary);
    } catch (error) {
      reportProblem(io, { path: file, ...describeLogError(error) });
      unusable = true;
    }
  }
  return { summary, unusable: unusable || summary.unreadable > 0 };
}
