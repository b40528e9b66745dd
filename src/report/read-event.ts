/**
 * Reads one line of a handoff event log back into a {@link HandoffEvent}: JSON with no key given
 * twice in one object, and the fields `seam report` uses checked against record version 1
 * (docs/handoff-events.md): their types and ranges (`at` a date-time, `ingest_ms` and counts not
 * negative), and what the record says of their values together (a route of the verdict's kind,
 * an accepted hop below the hop limit), so a bad line is named with what is wrong instead of
 * skewing a chart or raising a false alarm. Only what no runtime writes is refused: a refusal at
 * the hop limit carries whatever index the envelope claimed, and a latency is negative when the
 * two machines' clocks disagree.
 */
import { jsonError } from "../core/json-syntax.js";
import { escapeUntrusted } from "../core/untrusted-text.js";
import { EDGE_KINDS } from "../core/vocabulary.js";
import { duplicateKeyProblem, findDuplicateKeys, hasDuplicateKeys, type DuplicateKey } from "../runtime/duplicate-keys.js";
import { HANDOFF_EVENT_VERSION, MAX_EVENT_REASONS, parseTime, type HandoffEvent, type HandoffVerdict } from "../runtime/handoff-event.js";
import { REJECTION_ROUTES, ROUTES } from "../runtime/routes.js";
import { formats } from "../runtime/schema-helpers.js";

/** What one line held: an event, a record of another kind (skipped), or a fault (at a 1-based column of the line when it has a place). */
export type ReadEvent =
  | { readonly kind: "event"; readonly event: HandoffEvent }
  | { readonly kind: "other" }
  | { readonly kind: "bad"; readonly problem: string; readonly column?: number };

const VERDICTS: ReadonlySet<unknown> = new Set<HandoffVerdict>(["accepted", "observed", "rejected", "duplicate"]);
/** Verdicts of a handoff that was taken on: its route is an acceptance record's, its hop below the limit. */
const TAKEN_ON: ReadonlySet<unknown> = new Set<HandoffVerdict>(["accepted", "observed"]);
const ACCEPTED_ROUTES: ReadonlySet<unknown> = new Set(ROUTES);
const REFUSED_ROUTES: ReadonlySet<unknown> = new Set(REJECTION_ROUTES);
const KINDS: ReadonlySet<string> = new Set(EDGE_KINDS);
const NULLABLE_TEXT = ["handoff_id", "task_id", "producer", "edge", "status", "envelope_version"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/**
 * The longest duration a record may give, in milliseconds: the range of an ECMAScript time value
 * (ECMA-262, section 21.4.1.1). A longer one is no measurement, and would overflow the sketch's
 * buckets and the report's columns.
 */
export const MAX_DURATION_MS = 8.64e15;

const isDuration = (value: unknown): value is number => typeof value === "number" && Math.abs(value) <= MAX_DURATION_MS;
/** A time taken on one clock, which never runs backwards: `ingest_ms`. */
const isElapsed = (value: unknown): value is number => isDuration(value) && value >= 0;

/**
 * Whether `value` is an RFC 3339 date-time (the envelope schema's `date-time` check) that
 * JavaScript places in time: a leap second (`23:59:60`) has no time value, and no runtime writes
 * one, since each writes its clock's time as `Date.toISOString` does.
 */
const isTime = (value: unknown): boolean => typeof value === "string" && formats["date-time"].validate(value) && !Number.isNaN(parseTime(value));

/** The first field of `record` that is not what version 1 says, as a problem; `undefined` when all are. */
function fieldProblem(record: Record<string, unknown>): string | undefined {
  for (const key of ["at", "graph", "receiver", "route"] as const) {
    if (typeof record[key] !== "string") return `field "${key}" must be a string`;
  }
  if (!isTime(record["at"])) return `field "at" must be an RFC 3339 date-time such as 2026-11-29T10:05:00.000Z, without a leap second`;
  for (const key of NULLABLE_TEXT) {
    if (record[key] !== null && typeof record[key] !== "string") return `field "${key}" must be a string or null`;
  }
  if (!VERDICTS.has(record["verdict"])) return `field "verdict" must be one of ${[...VERDICTS].join(", ")}`;
  const verdict = record["verdict"] as HandoffVerdict;
  const takenOn = TAKEN_ON.has(verdict);
  const routes = takenOn ? ACCEPTED_ROUTES : REFUSED_ROUTES;
  if (!routes.has(record["route"])) return `field "route" must be one of ${[...routes].join(", ")} when "verdict" is "${verdict}"`;
  const edge = record["edge"];
  if (typeof edge === "string" && !edge.split("|").every((kind) => KINDS.has(kind))) {
    return `field "edge" must be one of ${[...KINDS].join(", ")}, several joined by "|", or null`;
  }
  if (record["latency_ms"] !== null && !isDuration(record["latency_ms"])) return `field "latency_ms" must be a number of milliseconds from -${MAX_DURATION_MS} to ${MAX_DURATION_MS}, or null`;
  if (!isElapsed(record["ingest_ms"])) return `field "ingest_ms" must be a number of milliseconds from 0 to ${MAX_DURATION_MS}`;
  for (const key of ["size_bytes", "hop_index"] as const) {
    if (record[key] !== null && !isCount(record[key])) return `field "${key}" must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, or null`;
  }
  const limit = record["hop_limit"];
  // A graph's hop_limit is at least 1 (docs/language.md); ingest refuses a handoff whose hop index
  // reaches it, on an observe edge too, so only a refusal can carry an index at or past it.
  if (!isCount(limit) || limit < 1) return `field "hop_limit" must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}`;
  const index = record["hop_index"];
  if (takenOn && typeof index === "number" && index >= limit) return `field "hop_index" must be less than "hop_limit" (${limit}) when "verdict" is "${verdict}"`;
  const total = record["reasons_total"];
  if (!isCount(total)) return `field "reasons_total" must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`;
  const reasons = record["reasons"];
  if (!Array.isArray(reasons)) return `field "reasons" must be an array`;
  if (reasons.length > MAX_EVENT_REASONS) return `field "reasons" must list at most ${MAX_EVENT_REASONS} reasons`;
  for (let i = 0; i < reasons.length; i++) {
    const reason: unknown = reasons[i];
    if (!isRecord(reason) || typeof reason["path"] !== "string" || typeof reason["rule"] !== "string") {
      return `reasons[${i}] must be an object with string "path" and "rule"`;
    }
  }
  if (reasons.length > total) return `field "reasons_total" must be at least the number of reasons listed, ${reasons.length}`;
  // Added to version 1 with fan-outs: a record written before has neither (read as null).
  if (record["branch"] !== undefined && record["branch"] !== null && typeof record["branch"] !== "string") return `field "branch" must be a string or null`;
  if (record["join"] !== undefined && record["join"] !== null && record["join"] !== "held" && record["join"] !== "fired") return `field "join" must be "held", "fired" or null`;
  // Only a handoff taken on travels in a branch or arrives at a join.
  for (const key of ["branch", "join"] as const) {
    if (!takenOn && record[key] !== undefined && record[key] !== null) return `field "${key}" must be null when "verdict" is "${verdict}"`;
  }
  return undefined;
}

/**
 * Reads one line of a handoff event log: JSON (RFC 8259) in which no object gives a key twice,
 * classified by {@link readEvent}. A repeated key is refused at its column: `JSON.parse` keeps
 * the last value and other readers the first, so the line would be one event here and another
 * elsewhere.
 *
 * @param text - the line, without its line break
 */
export function readEventLine(text: string): ReadEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const { offset, problem } = jsonError(text, error);
    return { kind: "bad", problem: `is not JSON: ${problem}`, column: offset + 1 };
  }
  const repeated = repeatedKey(text, value);
  if (repeated !== undefined) return { kind: "bad", problem: duplicateKeyProblem(repeated), column: repeated.offset + 1 };
  return readEvent(value);
}

/**
 * The repeated key that makes a line ambiguous: any in a handoff event; in another record of a
 * shared log, whose keys are its own business, only `event`, which may name a handoff event to
 * a reader that keeps the first value.
 */
function repeatedKey(text: string, value: unknown): DuplicateKey | undefined {
  if (!isRecord(value) || !hasDuplicateKeys(text, value)) return undefined;
  const repeated = findDuplicateKeys(text);
  return value["event"] === "seam.handoff" ? repeated[0] : repeated.find((found) => found.pointer === "/event");
}

/**
 * Classifies one parsed JSON value: a handoff event of version 1, another record (an object
 * whose `event` is not `"seam.handoff"`: other lines of a shared log), or a fault.
 *
 * @param value - what `JSON.parse` returned for the line
 */
export function readEvent(value: unknown): ReadEvent {
  if (!isRecord(value)) return { kind: "bad", problem: "is not a JSON object" };
  if (value["event"] !== "seam.handoff") return { kind: "other" };
  const version = value["v"];
  if (version !== HANDOFF_EVENT_VERSION) {
    return {
      kind: "bad",
      problem: `is a handoff event of record version ${escapeUntrusted(JSON.stringify(version) ?? "(none)", 40)}; this seam reads version ${HANDOFF_EVENT_VERSION}`,
    };
  }
  const problem = fieldProblem(value);
  if (problem !== undefined) return { kind: "bad", problem };
  const event = value as unknown as HandoffEvent;
  return { kind: "event", event: event.branch === undefined || event.join === undefined ? { ...event, branch: event.branch ?? null, join: event.join ?? null } : event };
}
