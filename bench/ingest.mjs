// Production ingest (issue 11): what the event log and OpenTelemetry add to accept(), what a
// claim on Redis costs, and how fast `seam report` reads a log of 10^6 events.
//   - accept() alone, beside accept() wrapped by observeAccept with the event log (to a sink
//     that drops lines), then the log plus OpenTelemetry: the API with no SDK; the SDK with a
//     10% trace sampler (parent-based); the SDK recording every span. Spans are batched to an
//     exporter that drops them, metrics aggregated. Interleaved batches, median of 9, as in the
//     runtime section.
//   - Redis (Debian's redis-server, appendfsync everysec): claims per second with 1, 8 and 64
//     concurrent callers on one client, beside plain SET NX at the same concurrency (median of 7
//     rounds of 300 ms, the two interleaved); the
//     latency of acceptAsync() with the Redis store beside accept() with the memory store, one
//     caller, p50 and p99; the round trip of one claim, script version 2 (the task ledger) beside
//     version 1 and the memory store (bench/redis-claim.mjs).
//   - `seam report --format json --html` on 10^6 generated events (bench/gen-events.mjs), in a
//     child process: events per second and peak RSS, beside reading and JSON.parse of every
//     line alone (the floor of any reader).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as api from "@opentelemetry/api";
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from "@opentelemetry/sdk-trace-base";
import { createClient } from "redis";
import { writeEventLog } from "./gen-events.mjs";
import { measureClaimRoundTrip } from "./redis-claim.mjs";
import { startRedis } from "./redis.mjs";
import { loadCompiledModule, makeEnvelopes } from "./runtime.mjs";
import { progress, runIfMain } from "./section.mjs";
import { median, nowMs, nsPerOp, quantile } from "./stats.mjs";
import { fmtBytes, fmtMs, fmtNs, row } from "./table.mjs";

const { createEventLog, createMemorySeenStore, createRedisSeenStore, createTelemetry, observeAccept, seamRedisScripts } = await import(
  "../dist/runtime/index.js"
);

const OUT = fileURLToPath(new URL("./.out/", import.meta.url));
const ME = "reporter";
const REPORT_EVENTS = 1_000_000;

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

export async function measureTelemetry(compiled, envelopes) {
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
  };
  const canRead = () => true;
  let seen;
  const fresh = () => (seen = createMemorySeenStore());
  for (const accept of Object.values(accepts)) {
    fresh();
    if (!accept(envelopes[0], { me: ME, canRead, seen }).ok) throw new Error("the fixture envelope is refused");
  }
  progress("ingest: accept() with and without the event log and OpenTelemetry, interleaved");
  const measures = { off: { op: (i) => compiled.accept(envelopes[i], { me: ME, canRead, seen }), setup: fresh } };
  for (const [name, accept] of Object.entries(accepts)) {
    measures[name] = { op: (i) => accept(envelopes[i], { me: ME, canRead, seen }, { sizeBytes: sizes[i] }), setup: fresh };
  }
  const perBatch = nsPerOp(measures, { ops: envelopes.length });
  api.metrics.disable();
  return Object.fromEntries(Object.entries(perBatch).map(([name, list]) => [name, median(list)]));
}

/** Runs `callers` loops of `op` for `ms`; returns operations per second. */
async function rate(callers, ms, op) {
  let done = 0;
  const end = nowMs() + ms;
  await Promise.all(
    Array.from({ length: callers }, async (_, c) => {
      for (let i = 0; nowMs() < end; i++) {
        await op(c, i);
        done++;
      }
    }),
  );
  return (done / ms) * 1000;
}

async function measureRedis(compiled, envelopes) {
  const redis = await startRedis();
  if (redis === undefined) {
    progress("ingest: redis-server is not installed (apt-get install redis-server): Redis rows skipped");
    return undefined;
  }
  const client = createClient({ url: redis.url, scripts: seamRedisScripts, disableOfflineQueue: true });
  client.on("error", () => {});
  await client.connect();
  try {
    const store = createRedisSeenStore(client, { prefix: "bench" });
    const claims = {};
    const sets = {};
    let n = 0;
    const claim = () =>
      store.claim({ handoffId: `c-${n}`, taskId: `t-${n++}`, hopIndex: 1, producer: "scanner", receiver: ME, edge: null, verdict: "accepted", at: 0 });
    const set = () => client.set(`bench:set:${n++}`, "1", { NX: true, EX: 3600 });
    for (const callers of [1, 8, 64]) {
      progress(`ingest: Redis claims and SET NX, ${callers} concurrent callers, 7 interleaved rounds of 300 ms each`);
      const claimRates = [];
      const setRates = [];
      for (let round = 0; round < 7; round++) {
        claimRates.push(await rate(callers, 300, claim));
        setRates.push(await rate(callers, 300, set));
      }
      claims[callers] = median(claimRates);
      sets[callers] = median(setRates);
    }
    progress("ingest: acceptAsync() with the Redis store vs accept() with the memory store, one caller");
    const canRead = () => true;
    const memory = createMemorySeenStore();
    const redisMs = [];
    const memoryMs = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < envelopes.length; i++) {
        // Fresh ids every round, so no claim is a duplicate.
        const envelope = { ...envelopes[i], handoff_id: `b7d9e7c2-51f0-4b8e-8d26-${String(round * 100_000 + i).padStart(12, "0")}`, task_id: `lat-${round}-${i}` };
        let t = nowMs();
        const remote = await compiled.acceptAsync(envelope, { me: ME, canRead, seen: store });
        if (round > 0) redisMs.push(nowMs() - t);
        t = nowMs();
        const local = compiled.accept({ ...envelope, task_id: `mem-${round}-${i}` }, { me: ME, canRead, seen: memory });
        if (round > 0) memoryMs.push(nowMs() - t);
        if (!remote.ok || !local.ok) throw new Error("the fixture envelope is refused");
      }
    }
    progress("ingest: one claim's round trip, script version 2 vs version 1 vs the memory store, one caller");
    const roundTrip = await measureClaimRoundTrip(client, { createMemorySeenStore, createRedisSeenStore });
    return {
      claims,
      sets,
      roundTrip,
      latency: {
        redis: { p50: quantile(redisMs, 0.5), p99: quantile(redisMs, 0.99) },
        memory: { p50: quantile(memoryMs, 0.5), p99: quantile(memoryMs, 0.99) },
      },
    };
  } finally {
    await client.quit();
    await redis.stop();
  }
}

export function measureReport() {
  const log = `${OUT}events-1e6.jsonl`;
  if (!existsSync(log) || statSync(log).size < 1e8) {
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
  progress("ingest: seam report on 10^6 events (child process)");
  const report = child(
    `const { reportCommand } = await import(${JSON.stringify(`${root}dist/cli/commands/report.js`)});
     const io = { stdout() {}, stderr(t) { process.stderr.write(t); }, stdoutIsTTY: false, cwd: process.cwd(), env: {} };
     const t = performance.now();
     const code = await reportCommand({ logs: [process.argv[1]], format: "json", html: process.argv[2] }, io);
     process.stdout.write(JSON.stringify({ code, ms: performance.now() - t, maxRss: process.resourceUsage().maxRSS * 1024 }));`,
    [log, `${OUT}report-1e6.html`],
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
  const envelopes = makeEnvelopes();
  const ns = await measureTelemetry(compiled, envelopes);
  const redis = await measureRedis(compiled, envelopes.slice(0, 500));
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
  ];
  if (redis !== undefined) {
    for (const callers of [1, 8, 64]) {
      rows.push(
        row(`Redis claims/s, ${callers} concurrent caller${callers === 1 ? "" : "s"} vs SET NX`, `${Math.round(redis.claims[callers])}/s`, `${Math.round(redis.sets[callers])}/s`, {
          ratio: redis.claims[callers] / redis.sets[callers],
        }),
      );
    }
    const { latency } = redis;
    rows.push(row("acceptAsync() + Redis claim, p50, vs accept() + memory store", fmtMs(latency.redis.p50), fmtMs(latency.memory.p50), { ratio: latency.redis.p50 / latency.memory.p50 }));
    rows.push(row("acceptAsync() + Redis claim, p99, vs accept() + memory store", fmtMs(latency.redis.p99), fmtMs(latency.memory.p99), { ratio: latency.redis.p99 / latency.memory.p99 }));
    const trip = redis.roundTrip;
    const us = (value) => fmtMs(value / 1000);
    rows.push(
      row("Redis claim v2 (ledger) vs v1 script, first hop of a task", us(trip.v2), us(trip.v1), { ratio: trip.v2 / trip.v1 }),
      row("Redis claim v2 vs v1 script, hops of 8-hop walks", us(trip.v2Walk), us(trip.v1Walk), { ratio: trip.v2Walk / trip.v1Walk }),
      row("Redis claim v2 vs memory store claim, first hop of a task", us(trip.v2), us(trip.memory), { ratio: trip.v2 / trip.memory }),
      row("Redis claim v2 vs memory store claim, hops of 8-hop walks", us(trip.v2Walk), us(trip.memoryWalk), { ratio: trip.v2Walk / trip.memoryWalk }),
    );
  }
  rows.push(
    row(`seam report, 10^6 events (${fmtBytes(report.bytes)}), events/s vs read + JSON.parse alone`, `${Math.round(perSecond)}/s`, `${Math.round(floorPerSecond)}/s`, {
      ratio: floorPerSecond / perSecond,
    }),
    row("seam report, 10^6 events, peak RSS vs read + JSON.parse alone", fmtBytes(report.report.maxRss), fmtBytes(report.floor.maxRss), {
      ratio: report.report.maxRss / report.floor.maxRss,
    }),
  );
  return { title: "Ingest: telemetry, Redis claims, seam report", data: { nsPerOp: ns, redis, report }, rows };
}

runIfMain(import.meta.url, measureIngest);
