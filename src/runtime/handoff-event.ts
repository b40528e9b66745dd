/**
 * The handoff event: one JSON object per handoff a receiver ingests, whatever the verdict, so a
 * team can watch its seams (latency, size per hop, hop counts, rejections by producer and field,
 * status per edge, versions in flight) before it enforces anything. `seam report` reads these
 * objects back; docs/handoff-events.md is the reference for each field.
 *
 * Every string taken from the envelope is escaped and bounded (`escapeUntrusted`), so a hostile
 * envelope can neither inject lines into a log nor grow a record without limit.
 */
import type { AcceptResult } from "./accept.js";
import { escapeUntrusted } from "../core/untrusted-text.js";
import type { EdgeInfo, EdgeKind, GraphInfo } from "./graph-data.js";
import { isJsonObject } from "./json-object.js";

/** The version of the record's shape; a reader refuses records of a version it does not know. */
export const HANDOFF_EVENT_VERSION = 1;

/** Code points of an id, version or status string a record keeps before the cut. */
export const MAX_EVENT_TEXT = 200;

/** The most reasons a record lists; `reasons_total` says how many there were. */
export const MAX_EVENT_REASONS = 32;

/**
 * What became of a handoff: `accepted`; `observed` (accepted on an `observe` edge with
 * warnings, which the reasons list); `rejected`; `duplicate` (a redelivery, not processed).
 */
export type HandoffVerdict = "accepted" | "observed" | "rejected" | "duplicate";

/** One reason of a rejection (or warning of an observed handoff), without its message. */
export interface EventReason {
  /** JSON Pointer (RFC 6901) of the offending field, bounded to {@link MAX_EVENT_TEXT}. */
  readonly path: string;
  /** The rule id (`required`, `hop-limit-reached`...). */
  readonly rule: string;
}

/**
 * One handoff as the receiver saw it, version {@link HANDOFF_EVENT_VERSION}. Fields are
 * `null` where the envelope did not carry a usable value; the key order is fixed.
 */
export interface HandoffEvent {
  /** Always `"seam.handoff"`: tells these records apart in a shared log. */
  readonly event: "seam.handoff";
  /** {@link HANDOFF_EVENT_VERSION}. */
  readonly v: typeof HANDOFF_EVENT_VERSION;
  /** When ingest finished: ISO 8601, UTC, millisecond precision. */
  readonly at: string;
  /** The graph's name. */
  readonly graph: string;
  readonly handoff_id: string | null;
  readonly task_id: string | null;
  /** `from_agent.id`. */
  readonly producer: string | null;
  /** The receiving agent (`me`). */
  readonly receiver: string;
  /** The kind of the graph's edge producer -> receiver; kinds joined by `|` when the pair has several edges; `null` when the graph has no such edge. */
  readonly edge: string | null;
  /** The envelope's completion `status` (`ready`, `partial`, `blocked`, `waiting_review`, `failed`), `null` when absent. */
  readonly status: string | null;
  readonly envelope_version: string | null;
  /**
   * Handoff latency in ms: from when the producer finished (the `sentAt` the service passes,
   * else the latest `provenance[].at`) to the end of ingest; `null` when neither is known.
   * Negative under clock skew between the two machines, and kept so.
   */
  readonly latency_ms: number | null;
  /** Time `accept()` itself took, in ms (microsecond precision). */
  readonly ingest_ms: number;
  readonly verdict: HandoffVerdict;
  /** The acceptance record's route, or the rejection's. */
  readonly route: string;
  /** The envelope's size in bytes as received (the service's count), else its UTF-8 JSON length; `null` when it cannot be serialised. */
  readonly size_bytes: number | null;
  /** `hop.index` when it is a whole number, 0 or more. */
  readonly hop_index: number | null;
  /** The graph's hop limit (the authority, whatever the envelope claims). */
  readonly hop_limit: number;
  /** Rejection reasons, or the warnings of an observed handoff; at most {@link MAX_EVENT_REASONS}. */
  readonly reasons: readonly EventReason[];
  /** How many reasons there were before the cut. */
  readonly reasons_total: number;
  /** The fan-out branch an accepted handoff travels in (`hop.branch`, as the graph names it); `null` outside one, and for refusals. */
  readonly branch: string | null;
  /** An accepted arrival at a join: `held` while the join waits for other branches, `fired` for the arrival that met its condition; else `null`. */
  readonly join: "held" | "fired" | null;
}

/** What one ingest looked like, for {@link HandoffDescriber}. */
export interface HandoffObservation {
  /** The envelope as passed to `accept()`. */
  readonly envelope: unknown;
  readonly result: AcceptResult;
  /** The receiving agent (`me`). */
  readonly receiver: string;
  /** End of ingest, ms since the Unix epoch. */
  readonly completedAt: number;
  /** Duration of `accept()`, in ms. */
  readonly ingestMs: number;
  /** When the producer finished (ms since the Unix epoch), e.g. the queue message's timestamp. */
  readonly sentAt?: number | undefined;
  /** The envelope's size as received, in bytes (the request body's length). */
  readonly sizeBytes?: number | undefined;
}

/** Turns one ingest into its {@link HandoffEvent}. Never throws, whatever the envelope holds. */
export type HandoffDescriber = (observation: HandoffObservation) => HandoffEvent;

/** The graph data a describer needs: what an emitted module exports as `graph` and `edges`. */
export interface DescribedGraph {
  readonly graph: GraphInfo;
  readonly edges: readonly EdgeInfo[];
}


/** A string escaped and bounded for a record. */
type Escape = (text: string) => string;

const escapeText: Escape = (text) => escapeUntrusted(text, MAX_EVENT_TEXT);

/**
 * {@link escapeText} that remembers its last answer: agent ids, statuses and versions repeat from
 * one handoff to the next, and the same text always escapes the same way.
 */
function rememberingEscape(): Escape {
  let lastText: string | undefined;
  let lastEscaped = "";
  return (text) => (text === lastText ? lastEscaped : ((lastEscaped = escapeText(text)), (lastText = text), lastEscaped));
}

/** An own string property, escaped and bounded; `null` otherwise. */
function textAt(object: unknown, key: string, escape: Escape = escapeText): string | null {
  if (!isJsonObject(object) || !Object.hasOwn(object, key)) return null;
  const value = object[key];
  return typeof value === "string" ? escape(value) : null;
}

function ownAt(object: unknown, key: string): unknown {
  return isJsonObject(object) && Object.hasOwn(object, key) ? object[key] : undefined;
}

/** UTF-8 length of well-formed text (what `JSON.stringify` returns: it escapes lone surrogates). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** `Date.toISOString()`'s shape, `2026-03-11T08:40:19.250Z` (milliseconds optional): what builders write in `provenance[].at`. */
const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{3})?Z$/;

/** The number of the two ASCII digits at `at`. */
const twoDigits = (text: string, at: number): number => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

/**
 * `Date.parse(text)`, read directly when `text` has {@link ISO_UTC}'s shape with every field in
 * range (the ECMAScript date-time string format, whose value the standard fixes: that of
 * `Date.UTC`), and by `Date.parse` otherwise: twice as fast on what builders write in
 * `provenance[].at` and runtimes in an event's `at` (which `seam report` reads with it).
 */
export function parseTime(text: string): number {
  if (ISO_UTC.test(text)) {
    const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
    const month = twoDigits(text, 5);
    const day = twoDigits(text, 8);
    const hour = twoDigits(text, 11);
    const minute = twoDigits(text, 14);
    const second = twoDigits(text, 17);
    // Date.UTC reads years 0-99 as 1900-1999; a day past the 28th is left to Date.parse.
    if (year >= 100 && month >= 1 && month <= 12 && day >= 1 && day <= 28 && hour <= 23 && minute <= 59 && second <= 59) {
      const ms = text.length === 24 ? twoDigits(text, 20) * 10 + text.charCodeAt(22) - 48 : 0;
      return Date.UTC(year, month - 1, day, hour, minute, second, ms);
    }
  }
  return Date.parse(text);
}

/** The latest `provenance[].at` that parses as a time, in ms; `undefined` when none does. */
function latestProvenance(envelope: unknown): number | undefined {
  const provenance = ownAt(envelope, "provenance");
  if (!Array.isArray(provenance)) return undefined;
  let latest: number | undefined;
  for (const entry of provenance) {
    const at = ownAt(entry, "at");
    if (typeof at !== "string") continue;
    const ms = parseTime(at);
    if (!Number.isNaN(ms) && (latest === undefined || ms > latest)) latest = ms;
  }
  return latest;
}

function sizeOf(envelope: unknown): number | null {
  try {
    const text = JSON.stringify(envelope);
    return typeof text === "string" ? utf8Length(text) : null;
  } catch {
    return null;
  }
}

function verdictOf(result: AcceptResult): HandoffVerdict {
  if (result.ok) return result.record.warnings.length > 0 ? "observed" : "accepted";
  return result.duplicate ? "duplicate" : "rejected";
}

/**
 * Builds the describer of one graph; the edge lookup is made once here.
 *
 * @param data - the graph's settings and edges (an emitted module's `graph` and `edges`)
 */
export function createHandoffDescriber(data: DescribedGraph): HandoffDescriber {
  const kinds = new Map<string, Map<string, string>>();
  for (const edge of data.edges) {
    let targets = kinds.get(edge.from);
    if (targets === undefined) kinds.set(edge.from, (targets = new Map()));
    const known = targets.get(edge.to);
    const list = known === undefined ? [edge.kind] : [...known.split("|"), edge.kind];
    targets.set(edge.to, [...new Set<EdgeKind | string>(list)].sort().join("|"));
  }
  const { graph } = data;
  const graphName = escapeUntrusted(graph.name, MAX_EVENT_TEXT);
  // Formatting a Date costs half as much as the rest of a description; at high rates many
  // handoffs end in the same millisecond.
  let lastMs = Number.NaN;
  let lastIso = "";
  const producerText = rememberingEscape();
  const receiverText = rememberingEscape();
  const statusText = rememberingEscape();
  const versionText = rememberingEscape();

  return function describe(observation: HandoffObservation): HandoffEvent {
    const { envelope, result, receiver } = observation;
    let fields: Pick<HandoffEvent, "handoff_id" | "task_id" | "producer" | "status" | "envelope_version" | "hop_index"> & {
      readonly sent: number | undefined;
      readonly edge: string | null;
    };
    try {
      const from = ownAt(envelope, "from_agent");
      const fromId = ownAt(from, "id");
      const rawIndex = ownAt(ownAt(envelope, "hop"), "index");
      fields = {
        handoff_id: textAt(envelope, "handoff_id"),
        task_id: textAt(envelope, "task_id"),
        producer: textAt(from, "id", producerText),
        status: textAt(envelope, "status", statusText),
        envelope_version: textAt(envelope, "envelope_version", versionText),
        hop_index: typeof rawIndex === "number" && Number.isSafeInteger(rawIndex) && rawIndex >= 0 ? rawIndex : null,
        sent: observation.sentAt ?? latestProvenance(envelope),
        edge: typeof fromId === "string" ? (kinds.get(fromId)?.get(receiver) ?? null) : null,
      };
    } catch {
      // A getter or proxy that throws: accept() refused it as unreadable; describe what is known.
      fields = { handoff_id: null, task_id: null, producer: null, status: null, envelope_version: null, hop_index: null, sent: undefined, edge: null };
    }
    const reasons = result.ok ? result.record.warnings : result.rejection.reasons;
    const listed: EventReason[] = [];
    for (let i = 0; i < reasons.length && i < MAX_EVENT_REASONS; i++) {
      const reason = reasons[i] as { readonly path: string; readonly rule: string };
      listed.push({ path: escapeUntrusted(reason.path, MAX_EVENT_TEXT), rule: escapeUntrusted(reason.rule, MAX_EVENT_TEXT) });
    }
    const size = observation.sizeBytes ?? sizeOf(envelope);
    return {
      event: "seam.handoff",
      v: HANDOFF_EVENT_VERSION,
      at: observation.completedAt === lastMs ? lastIso : (lastIso = new Date((lastMs = observation.completedAt)).toISOString()),
      graph: graphName,
      handoff_id: fields.handoff_id,
      task_id: fields.task_id,
      producer: fields.producer,
      receiver: receiverText(receiver),
      edge: fields.edge,
      status: fields.status,
      envelope_version: fields.envelope_version,
      latency_ms: fields.sent === undefined ? null : observation.completedAt - fields.sent,
      ingest_ms: Math.round(observation.ingestMs * 1000) / 1000,
      verdict: verdictOf(result),
      route: result.ok ? result.record.route : result.rejection.route,
      size_bytes: size,
      hop_index: fields.hop_index,
      hop_limit: graph.hopLimit,
      reasons: listed,
      reasons_total: reasons.length,
      branch: result.ok && result.record.branch !== undefined ? escapeUntrusted(result.record.branch, MAX_EVENT_TEXT) : null,
      join: result.ok && result.record.join !== undefined ? (result.record.join.fired ? "fired" : "held") : null,
    };
  };
}

/** Characters JSON.stringify writes as an escape inside a string: `"`, `\`, controls, any surrogate (a lone one is escaped). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string or `null` as JSON.stringify writes it. */
function jsonText(value: string | null): string {
  if (value === null) return "null";
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/**
 * {@link jsonText} that remembers its last answer, for a field whose value repeats from one event
 * to the next (graph, agents, edge kind, status, verdict, route): a comparison with the last
 * value instead of a scan for characters to escape. The same text always writes the same way.
 */
function rememberingJsonText(): (value: string | null) => string {
  let lastValue: string | null = null;
  let lastJson = "null";
  return (value) => (value === lastValue ? lastJson : ((lastJson = jsonText(value)), (lastValue = value), lastJson));
}

const graphJson = rememberingJsonText();
const producerJson = rememberingJsonText();
const receiverJson = rememberingJsonText();
const edgeJson = rememberingJsonText();
const statusJson = rememberingJsonText();
const versionJson = rememberingJsonText();
const verdictJson = rememberingJsonText();
const routeJson = rememberingJsonText();

/** A number or `null` as JSON.stringify writes it (`null` for NaN and the infinities). */
function jsonNumber(value: number | null): string {
  return value !== null && Number.isFinite(value) ? String(value) : "null";
}

/**
 * One event-log line: `JSON.stringify(event)` and a line feed, byte for byte, for an event the
 * describer made (own data properties in the fixed key order, the types {@link HandoffEvent}
 * gives), written field by field at half the cost of the generic serializer. Every handoff an
 * observed accept logs pays it; an event from elsewhere goes through JSON.stringify.
 */
export function handoffEventLine(event: HandoffEvent): string {
  let reasons = "";
  for (let i = 0; i < event.reasons.length; i++) {
    const reason = event.reasons[i] as EventReason;
    reasons += `${i === 0 ? "" : ","}{"path":${jsonText(reason.path)},"rule":${jsonText(reason.rule)}}`;
  }
  return (
    `{"event":${jsonText(event.event)},"v":${jsonNumber(event.v)},"at":${jsonText(event.at)},"graph":${graphJson(event.graph)},` +
    `"handoff_id":${jsonText(event.handoff_id)},"task_id":${jsonText(event.task_id)},"producer":${producerJson(event.producer)},` +
    `"receiver":${receiverJson(event.receiver)},"edge":${edgeJson(event.edge)},"status":${statusJson(event.status)},` +
    `"envelope_version":${versionJson(event.envelope_version)},"latency_ms":${jsonNumber(event.latency_ms)},"ingest_ms":${jsonNumber(event.ingest_ms)},` +
    `"verdict":${verdictJson(event.verdict)},"route":${routeJson(event.route)},"size_bytes":${jsonNumber(event.size_bytes)},` +
    `"hop_index":${jsonNumber(event.hop_index)},"hop_limit":${jsonNumber(event.hop_limit)},"reasons":[${reasons}],` +
    `"reasons_total":${jsonNumber(event.reasons_total)},"branch":${jsonText(event.branch)},"join":${jsonText(event.join)}}\n`
  );
}
