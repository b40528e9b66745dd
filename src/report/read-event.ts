/**
 * Reads one parsed line of a handoff event log back into a {@link HandoffEvent}, checking the
 * fields `seam report` uses against record version 1 (docs/handoff-events.md), so a bad line is
 * named with what is wrong instead of skewing a chart.
 */
import { escapeUntrusted } from "../core/untrusted-text.js";
import { HANDOFF_EVENT_VERSION, type HandoffEvent, type HandoffVerdict } from "../runtime/handoff-event.js";

/** What one line held: an event, a record of another kind (skipped), or a fault. */
export type ReadEvent =
  | { readonly kind: "event"; readonly event: HandoffEvent }
  | { readonly kind: "other" }
  | { readonly kind: "bad"; readonly problem: string };

const VERDICTS: ReadonlySet<unknown> = new Set<HandoffVerdict>(["accepted", "observed", "rejected", "duplicate"]);
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

/** The first field of `record` that is not what version 1 says, as a problem; `undefined` when all are. */
function fieldProblem(record: Record<string, unknown>): string | undefined {
  for (const key of ["at", "graph", "receiver", "route"] as const) {
    if (typeof record[key] !== "string") return `field "${key}" must be a string`;
  }
  for (const key of NULLABLE_TEXT) {
    if (record[key] !== null && typeof record[key] !== "string") return `field "${key}" must be a string or null`;
  }
  if (!VERDICTS.has(record["verdict"])) return `field "verdict" must be one of ${[...VERDICTS].join(", ")}`;
  if (record["latency_ms"] !== null && !isDuration(record["latency_ms"])) return `field "latency_ms" must be a number of milliseconds from -${MAX_DURATION_MS} to ${MAX_DURATION_MS}, or null`;
  if (!isDuration(record["ingest_ms"])) return `field "ingest_ms" must be a number of milliseconds from -${MAX_DURATION_MS} to ${MAX_DURATION_MS}`;
  for (const key of ["size_bytes", "hop_index"] as const) {
    if (record[key] !== null && !isCount(record[key])) return `field "${key}" must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, or null`;
  }
  if (!isCount(record["hop_limit"])) return `field "hop_limit" must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`;
  if (!isCount(record["reasons_total"])) return `field "reasons_total" must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`;
  const reasons = record["reasons"];
  if (!Array.isArray(reasons)) return `field "reasons" must be an array`;
  for (let i = 0; i < reasons.length; i++) {
    const reason: unknown = reasons[i];
    if (!isRecord(reason) || typeof reason["path"] !== "string" || typeof reason["rule"] !== "string") {
      return `reasons[${i}] must be an object with string "path" and "rule"`;
    }
  }
  // Added to version 1 with fan-outs: a record written before has neither (read as null).
  if (record["branch"] !== undefined && record["branch"] !== null && typeof record["branch"] !== "string") return `field "branch" must be a string or null`;
  if (record["join"] !== undefined && record["join"] !== null && record["join"] !== "held" && record["join"] !== "fired") return `field "join" must be "held", "fired" or null`;
  return undefined;
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
