/**
 * The metrics createTelemetry exports (counters kept locally and reported by observable
 * instruments, the previous handoff's series remembered) must be the data a plain
 * implementation exports: one synchronous `add()` per counted handoff and reason, and the same
 * histogram records. Both run on the same generated handoff events (valid and near-miss
 * envelopes, repeated as in steady traffic, duplicates included), each through its own meter
 * provider and the SDK's in-memory exporter; names, units, descriptions, kinds, attributes,
 * values and histogram buckets are compared.
 */
import * as api from "@opentelemetry/api";
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type MetricData } from "@opentelemetry/sdk-metrics";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldLabel } from "../../src/runtime/field-label.js";
import type { HandoffEvent } from "../../src/runtime/handoff-event.js";
import { observeAccept, type HandoffObserver } from "../../src/runtime/observe-accept.js";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";
import { createTelemetry, type OtelApiLike } from "../../src/runtime/telemetry.js";
import { refundDesk } from "../emit/helpers.js";
import { mutatedEnvelope, validEnvelope } from "./envelope-arbitrary.js";
import { graphModule } from "./graph-setup.js";

const checked = refundDesk();
const desk = graphModule(checked);
const STATUSES = new Set(["ready", "partial", "blocked", "waiting_review", "failed"]);
const HOPS = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32, 64];
const SIZES = [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576];

/** The API with spans off and metrics from `provider`. */
function apiWith(provider: MeterProvider): OtelApiLike {
  return { ...api, trace: { getTracer: () => new api.ProxyTracerProvider().getTracer("none") }, metrics: { getMeter: (name: string, version?: string) => provider.getMeter(name, version) } } as unknown as OtelApiLike;
}

/** The plain implementation: every count an `add()` on a synchronous counter, with the same names and labels. */
function plainMetrics(provider: MeterProvider): HandoffObserver {
  const meter = provider.getMeter("seam-handoff");
  const handoffs = meter.createCounter("seam.handoffs", { description: "Handoffs ingested, by edge, verdict and envelope status", unit: "{handoff}" });
  const rejections = meter.createCounter("seam.ingest.rejections", {
    description: "Reasons of refused (or, on observe edges, warned) handoffs, by producer, field and rule",
    unit: "{reason}",
  });
  const hops = meter.createHistogram("seam.hop.index", { description: "hop.index of ingested handoffs, by edge", unit: "{hop}", advice: { explicitBucketBoundaries: HOPS } });
  const sizes = meter.createHistogram("seam.envelope.size", { description: "Size of ingested envelopes, by edge", unit: "By", advice: { explicitBucketBoundaries: SIZES } });
  const known = new Set([...desk.graph.entries, ...desk.agents.map((a) => a.id)]);
  const label = (id: string | null) => (id !== null && known.has(id) ? id : "_OTHER");
  return {
    observe(event: HandoffEvent) {
      const from = label(event.producer);
      const to = label(event.receiver);
      const kind = event.edge ?? "_OTHER";
      const status = event.status === null ? "none" : STATUSES.has(event.status) ? event.status : "_OTHER";
      handoffs.add(1, { "seam.edge.from": from, "seam.edge.to": to, "seam.edge.kind": kind, "seam.verdict": event.verdict, "seam.handoff.status": status });
      if (event.verdict === "duplicate") return;
      const edge = { "seam.edge.from": from, "seam.edge.to": to, "seam.edge.kind": kind };
      if (event.hop_index !== null) hops.record(event.hop_index, edge);
      if (event.size_bytes !== null) sizes.record(event.size_bytes, edge);
      if (event.verdict === "rejected" || event.verdict === "observed") {
        for (const reason of event.reasons) {
          rejections.add(1, { "seam.edge.from": from, "seam.field": fieldLabel(reason.path, reason.rule), "seam.rule": reason.rule, "seam.verdict": event.verdict });
        }
      }
    },
  };
}

/** The handoff events of delivering `deliveries` in order to one store (repeats become duplicates). */
function eventsOf(deliveries: readonly { envelope: unknown; me: string }[], sizes: readonly number[]): HandoffEvent[] {
  const events: HandoffEvent[] = [];
  const seen = createMemorySeenStore();
  const accept = observeAccept(desk.accept, { graph: desk.graph, edges: desk.edges, telemetry: { observe: (event) => events.push(event) } });
  deliveries.forEach(({ envelope, me }, i) => accept(envelope, { me, seen, now: () => Date.UTC(2026, 2, 11) }, { sizeBytes: sizes[i % sizes.length] as number }));
  return events;
}

/** The exported metrics, each with its points sorted by attributes (the order of series is not data). */
async function exported(feed: (provider: MeterProvider) => HandoffObserver, events: readonly HandoffEvent[]): Promise<unknown[]> {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({ readers: [reader] });
  const observer = feed(provider);
  for (const event of events) observer.observe(event, { startedAt: 0, endedAt: 1 });
  await reader.forceFlush();
  const metrics: MetricData[] = exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
  await provider.shutdown();
  return metrics
    .map((m) => ({
      name: m.descriptor.name,
      unit: m.descriptor.unit,
      description: m.descriptor.description,
      dataPointType: m.dataPointType,
      monotonic: "isMonotonic" in m ? m.isMonotonic : undefined,
      points: m.dataPoints.map((p) => ({ attributes: JSON.stringify(Object.entries(p.attributes).sort()), value: p.value })).sort((a, b) => (a.attributes < b.attributes ? -1 : a.attributes > b.attributes ? 1 : 0)),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

describe("telemetry metrics: the local counters export what synchronous instruments would", () => {
  it("on generated valid and near-miss handoffs, repeated and interleaved", async () => {
    let rejected = 0;
    let series = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(validEnvelope(checked), mutatedEnvelope(checked)), { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat({ max: 4 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 2_000_000 }), { minLength: 1, maxLength: 4 }),
        async (pool, picks, sizes) => {
          // Runs of the same handoff (steady traffic) and switches between them.
          const deliveries = picks.flatMap((p) => [pool[p % pool.length], pool[p % pool.length]] as { envelope: unknown; me: string }[]);
          const events = eventsOf(deliveries, sizes);
          rejected += events.filter((e) => e.verdict === "rejected").length;
          const ours = await exported((provider) => createTelemetry(apiWith(provider), desk), events);
          const plain = await exported(plainMetrics, events);
          series += (ours as { points: unknown[] }[]).reduce((n, m) => n + m.points.length, 0);
          expect(ours).toEqual(plain);
        },
      ),
      { numRuns: 60, seed: 20261202 },
    );
    // Vacuous if nothing was refused, or nothing was exported.
    expect(rejected).toBeGreaterThan(20);
    expect(series).toBeGreaterThan(200);
  }, 120_000);
});
