/**
 * Spans and metrics of ingest, read back from the OpenTelemetry SDK's in-memory exporters.
 */
import * as api from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type DataPoint,
  type Histogram,
  type MetricData,
} from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { observeAccept } from "../../src/runtime/observe-accept.js";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";
import { createTelemetry, loadTelemetry, SEMCONV_VERSION } from "../../src/runtime/telemetry.js";
import { clone, projectRoot, readJsonFixture, refundDesk } from "../emit/helpers.js";
import { graphModule } from "./graph-setup.js";

type Envelope = Record<string, any>;

const desk = graphModule(refundDesk());
const base = readJsonFixture("cases", "envelopes", "valid-delegate.json") as Envelope;
const spans = new InMemorySpanExporter();
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
let reader: PeriodicExportingMetricReader;
let meterProvider: MeterProvider;

beforeAll(() => {
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
});

beforeEach(() => {
  spans.reset();
  metricExporter.reset();
  // A fresh meter provider per test, so counters start at zero.
  api.metrics.disable();
  reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  meterProvider = new MeterProvider({ readers: [reader] });
  api.metrics.setGlobalMeterProvider(meterProvider);
});

afterAll(async () => {
  await meterProvider.shutdown();
  api.trace.disable();
  api.metrics.disable();
  api.context.disable();
});

function variant(edit: (e: Envelope) => void): Envelope {
  const e = clone(base);
  edit(e);
  return e;
}

function ingest() {
  return observeAccept(desk.accept, { graph: desk.graph, edges: desk.edges, telemetry: createTelemetry(api, desk) });
}

async function collectMetrics(): Promise<Map<string, MetricData>> {
  await reader.forceFlush();
  const found = new Map<string, MetricData>();
  for (const resource of metricExporter.getMetrics()) {
    for (const scope of resource.scopeMetrics) for (const metric of scope.metrics) found.set(metric.descriptor.name, metric);
  }
  return found;
}

function points(metric: MetricData | undefined): { attributes: Record<string, unknown>; value: unknown }[] {
  return (metric?.dataPoints as DataPoint<unknown>[] | undefined ?? []).map((p) => ({ attributes: { ...p.attributes }, value: p.value }));
}

describe("telemetry: the ingest span", () => {
  it("is a child of the active span (the receiver's invoke_agent) with gen_ai.agent.* and seam.* attributes", () => {
    const tracer = api.trace.getTracer("test");
    const parent = tracer.startSpan("invoke_agent billing");
    api.context.with(api.trace.setSpan(api.context.active(), parent), () => {
      ingest()(base, { me: "billing", now: () => Date.parse("2026-11-29T10:02:12.5Z") }, { sentAt: Date.parse("2026-11-29T10:02:11Z"), sizeBytes: 777 });
    });
    parent.end();
    const [span] = spans.getFinishedSpans().filter((s) => s.name === "ingest billing");
    expect(span).toBeDefined();
    expect(span?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(span?.kind).toBe(api.SpanKind.INTERNAL);
    expect(span?.status.code).toBe(api.SpanStatusCode.UNSET);
    expect(span?.instrumentationScope.name).toBe("seam-handoff");
    expect(span?.attributes).toEqual({
      "gen_ai.agent.name": "billing",
      "gen_ai.agent.version": "2.0.0",
      "gen_ai.conversation.id": "refund-2026-11-0042",
      "seam.graph.name": "refund_desk",
      "seam.task.id": "refund-2026-11-0042",
      "seam.handoff.id": "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39",
      "seam.edge.from": "triage",
      "seam.edge.to": "billing",
      "seam.edge.kind": "delegate",
      "seam.hop.index": 1,
      "seam.hop.limit": 8,
      "seam.envelope.size": 777,
      "seam.envelope.version": "1.3.0",
      "seam.handoff.latency_ms": 1500,
      "seam.verdict": "accepted",
      "seam.route": "proceed",
    });
  });

  it("has status error, error.type and every reason's rule and JSON Pointer on a rejection", () => {
    const envelope = variant((e) => {
      delete e["budget"];
      e["goal"]["statement"] = "";
    });
    ingest()(envelope, { me: "billing" });
    const [span] = spans.getFinishedSpans();
    expect(span?.status).toEqual({ code: api.SpanStatusCode.ERROR, message: "rejected: required at /budget and 1 more" });
    expect(span?.attributes["error.type"]).toBe("seam.handoff_rejected");
    expect(span?.attributes["seam.verdict"]).toBe("rejected");
    expect(span?.attributes["seam.route"]).toBe("repair");
    expect(span?.attributes["seam.rejection.rules"]).toEqual(["required", "min-length"]);
    expect(span?.attributes["seam.rejection.pointers"]).toEqual(["/budget", "/goal/statement"]);
    expect(span?.attributes["seam.rejection.count"]).toBe(2);
  });

  it("leaves the status unset for a duplicate, which is not an error", () => {
    const seen = createMemorySeenStore();
    const accept = ingest();
    accept(base, { me: "billing", seen });
    accept(base, { me: "billing", seen });
    const [, second] = spans.getFinishedSpans();
    expect(second?.attributes["seam.verdict"]).toBe("duplicate");
    expect(second?.status.code).toBe(api.SpanStatusCode.UNSET);
  });

  it("spans exactly the time accept() took", () => {
    ingest()(base, { me: "billing" });
    const [span] = spans.getFinishedSpans();
    const [seconds, nanos] = span!.duration;
    expect(seconds).toBe(0);
    expect(nanos).toBeGreaterThan(0);
    expect(nanos).toBeLessThan(50_000_000);
  });
});

describe("telemetry: metrics", () => {
  it("counts handoffs by edge, verdict and status, and records hop index and size histograms", async () => {
    const accept = ingest();
    accept(base, { me: "billing" }, { sizeBytes: 900 });
    accept(variant((e) => ((e["handoff_id"] = "1b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39"), (e["status"] = "blocked"))), { me: "billing" }, { sizeBytes: 3000 });
    const metrics = await collectMetrics();
    expect(points(metrics.get("seam.handoffs"))).toEqual([
      {
        attributes: { "seam.edge.from": "triage", "seam.edge.to": "billing", "seam.edge.kind": "delegate", "seam.verdict": "accepted", "seam.handoff.status": "none" },
        value: 1,
      },
      {
        attributes: { "seam.edge.from": "triage", "seam.edge.to": "billing", "seam.edge.kind": "delegate", "seam.verdict": "accepted", "seam.handoff.status": "blocked" },
        value: 1,
      },
    ]);
    const edge = { "seam.edge.from": "triage", "seam.edge.to": "billing", "seam.edge.kind": "delegate" };
    const [hop] = points(metrics.get("seam.hop.index"));
    expect(hop?.attributes).toEqual(edge);
    expect(hop?.value).toMatchObject({ count: 2, sum: 2, min: 1, max: 1 });
    const [size] = points(metrics.get("seam.envelope.size"));
    const histogram = size?.value as Histogram;
    expect(histogram).toMatchObject({ count: 2, sum: 3900, min: 900, max: 3000 });
    expect(metrics.get("seam.envelope.size")?.descriptor.unit).toBe("By");
    // 900 falls in (512, 1024], 3000 in (2048, 4096].
    expect(histogram.buckets.boundaries.slice(0, 4)).toEqual([512, 1024, 2048, 4096]);
    expect(histogram.buckets.counts.slice(0, 5)).toEqual([0, 1, 0, 1, 0]);
  });

  it("counts rejections by producer, field and rule, with indices and invented names folded", async () => {
    const accept = ingest();
    accept(variant((e) => ((e["x_note"] = 1), (e["y_note"] = 2))), { me: "billing" });
    accept(
      variant((e) => {
        e["handoff_id"] = "2b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39";
        delete e["budget"];
      }),
      { me: "billing" },
    );
    const metrics = await collectMetrics();
    expect(points(metrics.get("seam.ingest.rejections"))).toEqual([
      { attributes: { "seam.edge.from": "triage", "seam.field": "/*", "seam.rule": "additional-property", "seam.verdict": "rejected" }, value: 2 },
      { attributes: { "seam.edge.from": "triage", "seam.field": "/budget", "seam.rule": "required", "seam.verdict": "rejected" }, value: 1 },
    ]);
  });

  it("labels a producer that is not an agent of the graph _OTHER, so hostile ids mint no series", async () => {
    const accept = ingest();
    for (let i = 0; i < 5; i++) accept(variant((e) => (e["from_agent"] = { id: `evil-${i}`, role: "worker" })), { me: "billing" });
    const metrics = await collectMetrics();
    const handoffs = points(metrics.get("seam.handoffs"));
    expect(handoffs).toHaveLength(1);
    expect(handoffs[0]?.attributes["seam.edge.from"]).toBe("_OTHER");
    expect(handoffs[0]?.value).toBe(5);
  });
});

describe("telemetry: loading", () => {
  it("loads @opentelemetry/api when installed", async () => {
    const telemetry = await loadTelemetry(desk);
    expect(telemetry).toBeDefined();
    observeAccept(desk.accept, { graph: desk.graph, edges: desk.edges, ...(telemetry ? { telemetry } : {}) })(base, { me: "billing" });
    expect(spans.getFinishedSpans().map((s) => s.name)).toEqual(["ingest billing"]);
  });

  it("gives undefined, and loads nothing, where @opentelemetry/api is not installed", async () => {
    // The built module, copied where no node_modules folder is above it.
    const dir = mkdtempSync(join(tmpdir(), "seam-no-otel-"));
    try {
      for (const file of ["telemetry.js", "field-label.js"]) copyFileSync(join(projectRoot, "dist", "runtime", file), join(dir, file));
      // A child process: vitest would resolve the package from the project instead.
      const script = `const { loadTelemetry } = await import(${JSON.stringify(pathToFileURL(join(dir, "telemetry.js")).href)});
        const t = await loadTelemetry({ graph: { name: "g", entries: [] }, agents: [], edges: [] });
        process.stdout.write(String(t));`;
      const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: dir, encoding: "utf8" });
      expect(out).toBe("undefined");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("pins the semantic conventions version it follows", () => {
    expect(SEMCONV_VERSION).toBe("1.41.0");
  });

  it("never lets a failing SDK reach ingest", () => {
    const broken = {
      ...api,
      trace: {
        getTracer: () => ({
          startSpan: () => {
            throw new Error("exporter down");
          },
        }),
      },
    };
    const accept = observeAccept(desk.accept, { graph: desk.graph, edges: desk.edges, telemetry: createTelemetry(broken, desk) });
    expect(accept(base, { me: "billing" }).ok).toBe(true);
  });
});
