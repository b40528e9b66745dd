// Production ingest: what the event log and OpenTelemetry add to accept(), and how fast
// `seam report` reads a log of 10^6 events (the Redis store has its own section, redis.mjs).
//   - accept() alone, beside accept() wrapped by observeAccept with the event log (to a sink
//     that drops lines), then the log plus OpenTelemetry: the API with no SDK; the SDK with a
//     10% trace sampler (parent-based); the SDK recording every span; the sampled SDK without
//     the event log (telemetry's own share). Spans are batched to an
//     exporter that drops them, metrics aggregated; then the sampled row's parts (metrics alone,
//     spans alone), and the floor of any such telemetry: accept() plus only the SDK calls it
//     makes per handoff (one span start and end, two histogram records, counted from it), with
//     no Seam code around them. Interleaved batches, median of 9, as in the
//     runtime section, on the same hop-2 envelopes (bench/envelopes.mjs).
//   - `seam report --format json --html` on 10^6 generated events (bench/gen-events.mjs), in a
//     child process: events per second and peak RSS, beside reading and JSON.parse of every
//     line alone (the floor of any reader).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as api from "@opentelemetry/api";
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from "@opentelemetry/sdk-trace-base";
import { loadCompiledModule, makeHandoffs, RECEIVER } from "./envelopes.mjs";
import { writeEventLog } from "./gen-events.mjs";
import { ledgerWithFirstHops } from "./runtime.mjs";
import { progress, runIfMain, scaled } from "./section.mjs";
import { median, nsPerOp } from "./stats.mjs";
import { fmtBytes, fmtNs, row } from "./table.mjs";

const { createEventLog, createTelemetry, observeAccept } = await import("../dist/runtime/index.js");

const OUT = fileURLToPath(new URL("./.out/", import.meta.url));
const ME = RECEIVER;
const POOL = scaled(2_000, 200);
const ROUNDS = scaled({ rounds: 9, warmupRounds: 3 }, { rounds: 1, warmupRounds: 1 });
const REPORT_EVENTS = scaled(1_000_000, 10_000);

/** An exporter that drops everything: the cost measured is recording, not shipping. */
const dropping = {
  export: (_items, done) => done({ code: 0 }),
  shutdown: async () => {},
  forceFlush: async () => {},
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
};

/** `@opentelemetry/api` as createTelemetry sees it, with spans from `provider` (metrics from the global meter provider). */
function withTracerProvider(provider) {
  return { ...api, trace: { getTracer: (name, version) => provider.getTracer(name, version) } };
}

/**
 * `base` (createTelemetry's view of `@opentelemetry/api`) with its span starts, span ends and
 * histogram records counted in `counts`.
 */
function countingApi(base, counts) {
  return {
    ...base,
    trace: {
      getTracer(name, version) {
        const tracer = base.trace.getTracer(name, version);
        return {
          startSpan(...args) {
            counts.startSpan++;
            const span = tracer.startSpan(...args);
            return {
              isRecording: () => span.isRecording(),
              setAttributes: (attributes) => span.setAttributes(attributes),
              setStatus: (status) => span.setStatus(status),
              end(endTime) {
                counts.end++;
                span.end(endTime);
              },
            };
          },
        };
      },
    },
    metrics: {
      getMeter(name, version) {
        const meter = base.metrics.getMeter(name, version);
        return {
          createObservableCounter: (...args) => meter.createObservableCounter(...args),
          createHistogram(...args) {
            const histogram = meter.createHistogram(...args);
            return {
              record(value, attributes) {
                counts.record++;
                histogram.record(value, attributes);
              },
            };
          },
        };
      },
    },
  };
}

/**
 * accept() followed by exactly the SDK calls telemetry makes for one accepted handoff, checked by
 * counting them on `envelopes`: the least any telemetry with a span per handoff and those two
 * histograms can cost, whatever its own code costs.
 */
function sdkCallsAlone(compiled, envelopes, sizes, sampled, accepted) {
  const data = { graph: compiled.graph, agents: compiled.agents, edges: compiled.edges };
  const counts = { startSpan: 0, end: 0, record: 0 };
  const counted = observeAccept(compiled.accept, { ...data, telemetry: createTelemetry(countingApi(withTracerProvider(sampled), counts), data) });
  const seen = accepted();
  envelopes.forEach((envelope, i) => counted(envelope, { me: ME, canRead: () => true, seen }, { sizeBytes: sizes[i] }));
  const perHandoff = Object.fromEntries(Object.entries(counts).map(([name, n]) => [name, n / envelopes.length]));
  if (perHandoff.startSpan !== 1 || perHandoff.end !== 1 || perHandoff.record !== 2) {
    throw new Error(`telemetry made ${JSON.stringify(perHandoff)} SDK calls per handoff; the floor measure makes 1 startSpan, 1 end, 2 record: make them the same`);
  }
  const tracer = sampled.getTracer("bench-floor");
  const meter = api.metrics.getMeter("bench-floor");
  const hops = meter.createHistogram("bench.floor.hops", { advice: { explicitBucketBoundaries: [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 24, 32, 64] } });
  const bytes = meter.createHistogram("bench.floor.bytes", { advice: { explicitBucketBoundaries: [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576] } });
  const start = { "gen_ai.agent.name": ME, "seam.verdict": "accepted" };
  const edge = { "seam.edge.from": "a", "seam.edge.to": ME, "seam.edge.kind": "delegate" };
  const origin = performance.timeOrigin;
  return (envelope, options, i) => {
    const started = performance.now();
    const result = compiled.accept(envelope, options);
    const span = tracer.startSpan(`ingest ${ME}`, { kind: 0, startTime: origin + started, attributes: start }, api.context.active());
    span.end(origin + performance.now());
    hops.record(envelope.hop.index, edge);
    bytes.record(sizes[i], edge);
    return result;
  };
}

export async function measureTelemetry(compiled, handoffs) {
  const envelopes = handoffs.next;
  const texts = envelopes.map((e) => JSON.stringify(e));
  const sizes = texts.map((t) => Buffer.byteLength(t));
  const data = { graph: compiled.graph, agents: compiled.agents, edges: compiled.edges };
  const events = createEventLog({ write() {} });
  // The API alone (no SDK registered): what a service pays for having the package installed.
  const noSdk = createTelemetry({ ...api, trace: { getTracer: () => new api.ProxyTracerProvider().getTracer("none") }, metrics: { getMeter: () => api.createNoopMeter() } }, data);
  api.metrics.setGlobalMeterProvider(
    new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: dropping, exportIntervalMillis: 3_600_000 })] }),
  );
  const everySpan = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] });
  const sampled = new BasicTracerProvider({
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.1) }),
    spanProcessors: [new BatchSpanProcessor(dropping)],
  });
  const accepts = {
    log: observeAccept(compiled.accept, { ...data, events }),
    noSdk: observeAccept(compiled.accept, { ...data, events, telemetry: noSdk }),
    sampled: observeAccept(compiled.accept, { ...data, events, telemetry: createTelemetry(withTracerProvider(sampled), data) }),
    every: observeAccept(compiled.accept, { ...data, events, telemetry: createTelemetry(withTracerProvider(everySpan), data) }),
    // The sampled row without the event log: what telemetry alone adds to accept().
    telemetryOnly: observeAccept(compiled.accept, { ...data, telemetry: createTelemetry(withTracerProvider(sampled), data) }),
    // The sampled row's parts: the SDK's metrics with no tracer, and its 10% spans with no meter.
    metricsOnly: observeAccept(compiled.accept, { ...data, events, telemetry: createTelemetry({ ...api, trace: { getTracer: () => new api.ProxyTracerProvider().getTracer("none") } }, data) }),
    spansOnly: observeAccept(compiled.accept, { ...data, events, telemetry: createTelemetry({ ...withTracerProvider(sampled), metrics: { getMeter: () => api.createNoopMeter() } }, data) }),
  };
  const canRead = () => true;
  let seen;
  const fresh = () => (seen = ledgerWithFirstHops(compiled, handoffs));
  const floor = sdkCallsAlone(compiled, envelopes, sizes, sampled, () => ledgerWithFirstHops(compiled, handoffs));
  for (const [name, accept] of Object.entries(accepts)) {
    fresh();
    for (const envelope of envelopes) {
      const verdict = accept(envelope, { me: ME, canRead, seen });
      if (!verdict.ok) throw new Error(`accept() (${name}) refuses the bench's hop-2 envelope: ${JSON.stringify(verdict.rejection.reasons)}`);
    }
  }
  progress("ingest: accept() with and without the event log and OpenTelemetry, interleaved");
  const measures = { off: { op: (i) => compiled.accept(envelopes[i], { me: ME, canRead, seen }), setup: fresh } };
  for (const [name, accept] of Object.entries(accepts)) {
    measures[name] = { op: (i) => accept(envelopes[i], { me: ME, canRead, seen }, { sizeBytes: sizes[i] }), setup: fresh };
  }
  measures.sdkCallsAlone = { op: (i) => floor(envelopes[i], { me: ME, canRead, seen }, i), setup: fresh };
  const perBatch = nsPerOp(measures, { ops: envelopes.length, ...ROUNDS });
  api.metrics.disable();
  return Object.fromEntries(Object.entries(perBatch).map(([name, list]) => [name, median(list)]));
}

export function measureReport() {
  const log = `${OUT}events-${REPORT_EVENTS}.jsonl`;
  if (!existsSync(log) || statSync(log).size < REPORT_EVENTS * 100) {
    progress(`ingest: writing ${REPORT_EVENTS} generated events`);
    return writeEventLog(log, { events: REPORT_EVENTS, seed: 7 }).then(() => timeReport(log));
  }
  return timeReport(log);
}

/** Runs `script` in a child Node process; returns its JSON line. */
function child(script, args) {
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script, ...args], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (result.status !== 0) throw new Error(`child exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

function timeReport(log) {
  const root = new URL("..", import.meta.url).href;
  progress(`ingest: seam report on ${REPORT_EVENTS} events (child process)`);
  const report = child(
    `const { reportCommand } = await import(${JSON.stringify(`${root}dist/cli/commands/report.js`)});
     const io = { stdout() {}, stderr(t) { process.stderr.write(t); }, stdoutIsTTY: false, cwd: process.cwd(), env: {} };
     const t = performance.now();
     const code = await reportCommand({ logs: [process.argv[1]], format: "json", html: process.argv[2] }, io);
     process.stdout.write(JSON.stringify({ code, ms: performance.now() - t, maxRss: process.resourceUsage().maxRSS * 1024 }));`,
    [log, `${OUT}report-${REPORT_EVENTS}.html`],
  );
  if (report.code !== 0) throw new Error(`seam report exited ${report.code}`);
  progress("ingest: reading and JSON.parse of every line alone (child process)");
  const floor = child(
    `const { readLines } = await import(${JSON.stringify(`${root}dist/cli/read-lines.js`)});
     const t = performance.now();
     let n = 0;
     await readLines(process.argv[1], { line(_, text) { if (text !== "") { JSON.parse(text); n++; } }, bad() {} });
     process.stdout.write(JSON.stringify({ n, ms: performance.now() - t, maxRss: process.resourceUsage().maxRSS * 1024 }));`,
    [log],
  );
  return { report, floor, bytes: statSync(log).size };
}

export async function measureIngest() {
  mkdirSync(OUT, { recursive: true });
  const compiled = await loadCompiledModule();
  const ns = await measureTelemetry(compiled, makeHandoffs(compiled, POOL));
  const report = await measureReport();
  const perSecond = (REPORT_EVENTS / report.report.ms) * 1000;
  const floorPerSecond = (REPORT_EVENTS / report.floor.ms) * 1000;
  const rows = [
    row("accept() + event log vs accept() alone", fmtNs(ns.log), fmtNs(ns.off), { ratio: ns.log / ns.off }),
    row("+ OpenTelemetry API, no SDK registered", fmtNs(ns.noSdk), fmtNs(ns.off), { ratio: ns.noSdk / ns.off }),
    row("+ OpenTelemetry SDK, 10% of traces sampled, metrics on", fmtNs(ns.sampled), fmtNs(ns.off), {
      ratio: ns.sampled / ns.off,
      target: { op: "<=", value: 1.2 },
    }),
    row("+ OpenTelemetry SDK, every span recorded, metrics on", fmtNs(ns.every), fmtNs(ns.off), { ratio: ns.every / ns.off }),
    row("OpenTelemetry SDK alone, 10% of traces sampled, metrics on (no event log)", fmtNs(ns.telemetryOnly), fmtNs(ns.off), { ratio: ns.telemetryOnly / ns.off }),
    row("event log + OpenTelemetry SDK metrics only (no tracer)", fmtNs(ns.metricsOnly), fmtNs(ns.off), { ratio: ns.metricsOnly / ns.off }),
    row("event log + OpenTelemetry SDK spans only, 10% sampled (no meter)", fmtNs(ns.spansOnly), fmtNs(ns.off), { ratio: ns.spansOnly / ns.off }),
    row("accept() + only the SDK calls of a handoff (1 span, 10% sampled; 2 histogram records; no Seam code)", fmtNs(ns.sdkCallsAlone), fmtNs(ns.off), {
      ratio: ns.sdkCallsAlone / ns.off,
    }),
  ];
  rows.push(
    row(`seam report, ${REPORT_EVENTS} events (${fmtBytes(report.bytes)}), events/s vs read + JSON.parse alone`, `${Math.round(perSecond)}/s`, `${Math.round(floorPerSecond)}/s`, {
      ratio: floorPerSecond / perSecond,
    }),
    row(`seam report, ${REPORT_EVENTS} events, peak RSS vs read + JSON.parse alone`, fmtBytes(report.report.maxRss), fmtBytes(report.floor.maxRss), {
      ratio: report.report.maxRss / report.floor.maxRss,
    }),
  );
  return { title: "Ingest: telemetry, seam report", data: { nsPerOp: ns, report }, rows };
}

runIfMain(import.meta.url, measureIngest);
