/**
 * OpenTelemetry for ingest, through `@opentelemetry/api` (an optional peer dependency: a service
 * without it loads nothing and pays nothing). Per handoff, one span `ingest <receiver>`, a child
 * of whatever span is active (the receiver's `invoke_agent` span, when the service traces its
 * agents with the GenAI conventions), and four metrics.
 *
 * Attribute names follow the OpenTelemetry semantic conventions v1.41.0
 * (https://github.com/open-telemetry/semantic-conventions/tree/v1.41.0/docs/gen-ai), whose
 * GenAI attributes are still "Development": `gen_ai.agent.name`, `gen_ai.agent.version` and
 * `gen_ai.conversation.id` where they apply, `error.type` on a rejection, and Seam's own
 * `seam.*` names for the rest (listed in docs/telemetry.md).
 *
 * Metric attributes are bounded: agent ids that are not agents of the graph become `_OTHER` (the
 * conventions' value for "none of the known ones"), statuses outside the envelope's enum too, and
 * fields are grouped ({@link fieldLabel}), so a hostile producer cannot mint new series.
 */
import type { AgentInfo, EdgeInfo, GraphInfo } from "./graph-data.js";
import { fieldLabel } from "./field-label.js";
import type { HandoffEvent } from "./handoff-event.js";
import type { HandoffObserver, IngestTiming } from "./observe-accept.js";

/** The semantic conventions version whose attribute names Seam emits. */
export const SEMCONV_VERSION = "1.41.0";

/** The instrumentation scope name of Seam's tracer and meter. */
export const INSTRUMENTATION_SCOPE = "seam-handoff";

/** Attribute values OpenTelemetry accepts (the subset Seam emits). */
type AttributeValue = string | number | string[];
/** Attributes of a span or a measurement. */
export type Attributes = Record<string, AttributeValue>;
/** One series of a counter kept here: its attribute set and its count so far. */
interface Series {
  readonly attributes: Attributes;
  value: number;
}

/** The part of a span Seam uses (`@opentelemetry/api`'s `Span`). */
export interface SpanLike {
  isRecording(): boolean;
  setAttributes(attributes: Attributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(endTime?: number): void;
}
/** The part of `@opentelemetry/api` Seam uses; the real module satisfies it. */
export interface OtelApiLike {
  readonly trace: {
    getTracer(name: string, version?: string): {
      startSpan(name: string, options: { kind?: number; startTime?: number; attributes?: Attributes }, context?: unknown): SpanLike;
    };
  };
  readonly metrics: {
    getMeter(name: string, version?: string): {
      createObservableCounter(
        name: string,
        options: { description?: string; unit?: string },
      ): { addCallback(callback: (result: { observe(value: number, attributes?: Attributes): void }) => void): void };
      createHistogram(
        name: string,
        options: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } },
      ): { record(value: number, attributes?: Attributes): void };
    };
  };
  readonly context: { active(): unknown };
}

/** What telemetry needs to know of the graph: an emitted module's `graph`, `agents` and `edges`. */
export interface TelemetryGraph {
  readonly graph: GraphInfo;
  readonly agents: readonly AgentInfo[];
  readonly edges: readonly EdgeInfo[];
}

/** The conventions' value for an attribute value outside the known set. */
const OTHER = "_OTHER";
const STATUSES: ReadonlySet<string> = new Set(["ready", "partial", "blocked", "waiting_review", "failed"]);
const SPAN_KIND_INTERNAL = 0;
/** The most attribute sets a counter keeps; more go to one overflow series, as the SDK does. */
const MAX_SERIES = 2000;
const OVERFLOW_KEY = "\0overflow";
const STATUS_ERROR = 2;

/**
 * Creates the telemetry of one graph on an already loaded `@opentelemetry/api`: pass the result
 * as `telemetry` to `observeAccept`. Without a registered SDK the API's no-op tracer and meter
 * make every call cheap; with one, each handoff becomes a span and four measurements.
 *
 * @param api - the `@opentelemetry/api` module (1.x)
 * @param data - the graph's `graph`, `agents` and `edges`
 * @param version - the version reported with the instrumentation scope (default: none)
 */
export function createTelemetry(api: OtelApiLike, data: TelemetryGraph, version?: string): HandoffObserver {
  const tracer = api.trace.getTracer(INSTRUMENTATION_SCOPE, version);
  const meter = api.metrics.getMeter(INSTRUMENTATION_SCOPE, version);
  // Counts are kept here and read by the SDK at each collection (observable counters): a Map
  // update per handoff instead of an SDK call, which costs more than accept() itself.
  const handoffs = new Map<string, Series>();
  const rejections = new Map<string, Series>();
  function observeAll(counts: Map<string, Series>) {
    return (result: { observe(value: number, attributes?: Attributes): void }): void => {
      for (const { attributes, value } of counts.values()) result.observe(value, attributes);
    };
  }
  meter
    .createObservableCounter("seam.handoffs", { description: "Handoffs ingested, by edge, verdict and envelope status", unit: "{handoff}" })
    .addCallback(observeAll(handoffs));
  meter
    .createObservableCounter("seam.ingest.rejections", {
      description: "Reasons of refused (or, on observe edges, warned) handoffs, by producer, field and rule",
      unit: "{reason}",
    })
    .addCallback(observeAll(rejections));
  /** Adds one to the series `key` (the overflow series past {@link MAX_SERIES}); returns the series counted. */
  function count(counts: Map<string, Series>, key: string, make: () => Attributes): Series {
    let found = counts.get(key);
    if (found !== undefined) found.value++;
    else if (counts.size < MAX_SERIES) counts.set(key, (found = { attributes: make(), value: 1 }));
    else found = count(counts, OVERFLOW_KEY, () => ({ "otel.metric.overflow": "true" }));
    return found;
  }
  // The series of the previous handoff, and its edge's histogram attributes: steady traffic
  // repeats the same labels, which compare for less than building and hashing their key.
  let last: { from: string; to: string; kind: string; verdict: string; status: string; series: Series; edge: Attributes } | null = null;
  const hops = meter.createHistogram("seam.hop.index", {
    description: "hop.index of ingested handoffs, by edge",
    unit: "{hop}",
    advice: { explicitBucketBoundaries: [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32, 64] },
  });
  const sizes = meter.createHistogram("seam.envelope.size", {
    description: "Size of ingested envelopes, by edge",
    unit: "By",
    advice: { explicitBucketBoundaries: [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576] },
  });

  const versions = new Map<string, string>();
  const known = new Set<string>(data.graph.entries);
  for (const agent of data.agents) {
    known.add(agent.id);
    if (agent.version !== undefined) versions.set(agent.id, agent.version);
  }
  const graphName = data.graph.name;
  const agentLabel = (id: string | null): string => (id !== null && known.has(id) ? id : OTHER);
  // Histogram attribute objects are reused: their keys are bounded (agents and edge kinds).
  const attributeCache = new Map<string, Attributes>();
  function cached(key: string, make: () => Attributes): Attributes {
    let found = attributeCache.get(key);
    if (found === undefined) attributeCache.set(key, (found = make()));
    return found;
  }
  // The span's start attributes, one object per receiver and verdict (the SDK copies them): a
  // handoff builds no object for a span the sampler drops. Receivers are bounded as metric
  // labels are: an id outside the graph gets a fresh object each time, never a cache entry.
  const startAttributes = new Map<string, Partial<Record<HandoffEvent["verdict"], Attributes>>>();
  function spanStart(receiver: string, verdict: HandoffEvent["verdict"]): Attributes {
    if (!known.has(receiver)) return { "gen_ai.agent.name": receiver, "seam.verdict": verdict };
    let byVerdict = startAttributes.get(receiver);
    if (byVerdict === undefined) startAttributes.set(receiver, (byVerdict = {}));
    return (byVerdict[verdict] ??= { "gen_ai.agent.name": receiver, "seam.verdict": verdict });
  }

  function spanAttributes(event: HandoffEvent): Record<string, AttributeValue> {
    const attributes: Record<string, AttributeValue> = {
      "gen_ai.agent.name": event.receiver,
      "seam.graph.name": graphName,
      "seam.edge.to": event.receiver,
      "seam.hop.limit": event.hop_limit,
      "seam.verdict": event.verdict,
      "seam.route": event.route,
    };
    const version = versions.get(event.receiver);
    if (version !== undefined) attributes["gen_ai.agent.version"] = version;
    if (event.task_id !== null) {
      attributes["gen_ai.conversation.id"] = event.task_id;
      attributes["seam.task.id"] = event.task_id;
    }
    if (event.handoff_id !== null) attributes["seam.handoff.id"] = event.handoff_id;
    if (event.producer !== null) attributes["seam.edge.from"] = event.producer;
    if (event.edge !== null) attributes["seam.edge.kind"] = event.edge;
    if (event.hop_index !== null) attributes["seam.hop.index"] = event.hop_index;
    if (event.size_bytes !== null) attributes["seam.envelope.size"] = event.size_bytes;
    if (event.envelope_version !== null) attributes["seam.envelope.version"] = event.envelope_version;
    if (event.status !== null) attributes["seam.handoff.status"] = event.status;
    if (event.latency_ms !== null) attributes["seam.handoff.latency_ms"] = event.latency_ms;
    if (event.reasons.length > 0) {
      const prefix = event.verdict === "observed" ? "seam.warning" : "seam.rejection";
      attributes[`${prefix}.rules`] = event.reasons.map((r) => r.rule);
      attributes[`${prefix}.pointers`] = event.reasons.map((r) => r.path);
      attributes[`${prefix}.count`] = event.reasons_total;
    }
    if (event.verdict === "rejected") attributes["error.type"] = "seam.handoff_rejected";
    return attributes;
  }

  return {
    observe(event: HandoffEvent, timing: IngestTiming): void {
      try {
        // Only what a sampler may look at goes in at the start; the rest only when recorded.
        const span = tracer.startSpan(
          `ingest ${event.receiver}`,
          { kind: SPAN_KIND_INTERNAL, startTime: timing.startedAt, attributes: spanStart(event.receiver, event.verdict) },
          api.context.active(),
        );
        // A span that is not recorded (90% of them at a 10% sampler) drops what it is given: build nothing for it.
        if (span.isRecording()) {
          span.setAttributes(spanAttributes(event));
          if (event.verdict === "rejected") {
            const first = event.reasons[0];
            const more = event.reasons_total > 1 ? ` and ${event.reasons_total - 1} more` : "";
            span.setStatus({ code: STATUS_ERROR, message: first === undefined ? "rejected" : `rejected: ${first.rule} at ${first.path || "/"}${more}` });
          }
        }
        span.end(timing.endedAt);

        const from = agentLabel(event.producer);
        const to = agentLabel(event.receiver);
        const kind = event.edge ?? OTHER;
        const verdict = event.verdict;
        const status = event.status !== null && STATUSES.has(event.status) ? event.status : event.status === null ? "none" : OTHER;
        let edge: Attributes;
        if (last !== null && last.from === from && last.to === to && last.kind === kind && last.verdict === verdict && last.status === status) {
          last.series.value++;
          edge = last.edge;
        } else {
          const series = count(handoffs, `${from}\0${to}\0${kind}\0${verdict}\0${status}`, () => ({
            "seam.edge.from": from,
            "seam.edge.to": to,
            "seam.edge.kind": kind,
            "seam.verdict": verdict,
            "seam.handoff.status": status,
          }));
          edge = cached(`e\0${from}\0${to}\0${kind}`, () => ({ "seam.edge.from": from, "seam.edge.to": to, "seam.edge.kind": kind }));
          // Only a series of its own is remembered: the overflow series stands for many label sets.
          last = series.attributes["otel.metric.overflow"] === undefined ? { from, to, kind, verdict, status, series, edge } : null;
        }
        if (verdict === "duplicate") return;
        if (event.hop_index !== null) hops.record(event.hop_index, edge);
        if (event.size_bytes !== null) sizes.record(event.size_bytes, edge);
        if (event.verdict === "rejected" || event.verdict === "observed") {
          for (const reason of event.reasons) {
            const field = fieldLabel(reason.path, reason.rule);
            count(rejections, `${from}\0${field}\0${reason.rule}\0${verdict}`, () => ({
              "seam.edge.from": from,
              "seam.field": field,
              "seam.rule": reason.rule,
              "seam.verdict": verdict,
            }));
          }
        }
      } catch {
        // Telemetry must never break ingest: an SDK that throws loses this handoff's data only.
      }
    },
  };
}

/**
 * Loads `@opentelemetry/api` if the service has it installed and returns {@link createTelemetry}
 * for the graph; `undefined` when the package is absent (then pass nothing to `observeAccept`:
 * no span, no metric, no cost).
 *
 * @param data - the graph's `graph`, `agents` and `edges`
 * @throws what importing the package throws for any reason but its absence
 */
export async function loadTelemetry(data: TelemetryGraph): Promise<HandoffObserver | undefined> {
  let api: OtelApiLike;
  try {
    api = (await import("@opentelemetry/api")) as unknown as OtelApiLike;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") return undefined;
    throw error;
  }
  return createTelemetry(api, data);
}
