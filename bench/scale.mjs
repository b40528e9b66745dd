// Scale: parse + check time and memory on generated graphs of 10^3, 10^4 and 10^5 agents
// (bench/gen-graph.mjs), in-process against the built code, beside networkx doing only the
// graph part of the job (build + strongly connected components + reachability, in Python).
// The largest graph is also checked by a whole process (bench/check-process.mjs: start-up,
// reading, parse, check and the JSON output, as `seam check --format json` does), beside
// networkx's in-process time and the peak RSS of each process; every run of that process must
// print the same bytes, since the output may not depend on the machine's load.
// The growth exponent (slope of log time against log n) shows whether the checker stays
// near-linear as graphs grow; a recursive or quadratic pass shows up here first.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { PerformanceObserver, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { generateGraph, toEdgeList, toSeam } from "./gen-graph.mjs";
import { findPython, runPythonJson } from "./python.mjs";
import { progress, runIfMain, scaled } from "./section.mjs";
import { logLogSlope, median, nowMs } from "./stats.mjs";
import { fmtBytes, fmtMs, row } from "./table.mjs";

const OUT = new URL("./.out/", import.meta.url);
/**
 * Graph sizes, timed rounds and untimed warm-up rounds per size: fewer for the largest, to keep
 * the bench short, and no warm-up there since the smaller sizes have already warmed the JIT.
 */
const SIZES = scaled(
  [
    { agents: 1_000, runs: 15, warmup: 2 },
    { agents: 10_000, runs: 5, warmup: 1 },
    { agents: 100_000, runs: 3, warmup: 0 },
  ],
  [
    { agents: 1_000, runs: 1, warmup: 0 },
    { agents: 10_000, runs: 1, warmup: 0 },
  ],
);
/** Whole-process runs of the largest graph. */
const PROCESS_RUNS = scaled(3, 2);
/** Time allowed for the timed rounds at one size; at least one round always runs. */
const BUDGET_MS = 30_000;

const { parse } = await import("../dist/parser/parse.js");
const { check } = await import("../dist/analysis/check.js");
const { createSourceFile } = await import("../dist/core/source-file.js");

/** A full garbage collection, so that one run's garbage is not collected in the next one's time. */
function collect() {
  if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc");
  globalThis.gc();
}

/** Garbage-collection pauses as they are reported: `{ startTime, duration }` in ms. */
const gcPauses = [];
new PerformanceObserver((list) => gcPauses.push(...list.getEntries())).observe({ entryTypes: ["gc"] });

/** Milliseconds of GC pause inside [from, to] (performance.now() times); waits for the reports. */
async function gcMsBetween(from, to) {
  await new Promise((resolve) => setTimeout(resolve, 0)); // the observer reports on a timer
  const inside = gcPauses.filter((e) => e.startTime >= from && e.startTime <= to);
  gcPauses.length = 0;
  return inside.reduce((sum, e) => sum + e.duration, 0);
}

/**
 * Times parse and check in interleaved rounds (drift on a shared machine hits both alike), a
 * full GC before each call (untimed). Also measures the heap that check's result retains
 * (AST + model + diagnostics: heapUsed after a GC, result alive, minus heapUsed before), the
 * share of check's time spent in GC pauses, and the process's peak RSS.
 * check() parses too, so check-only time is taken per round as check minus parse.
 */
async function timeRounds(path, text, { runs, warmup }) {
  const rounds = [];
  let result;
  let spent = 0;
  for (let i = 0; i < warmup + runs && (i <= warmup || spent < BUDGET_MS); i++) {
    result = undefined; // the last round's result must not count in this round's heap
    collect();
    const heapBeforeParse = process.memoryUsage().heapUsed;
    let start = nowMs();
    let tree = parse(createSourceFile(path, text));
    const parseMs = nowMs() - start;
    collect();
    const treeRetained = process.memoryUsage().heapUsed - heapBeforeParse;
    tree = undefined;
    collect();
    const heapBefore = process.memoryUsage().heapUsed;
    start = nowMs();
    const windowStart = performance.now();
    result = check(createSourceFile(path, text));
    const checkMs = nowMs() - start;
    const gcMs = await gcMsBetween(windowStart, performance.now());
    collect();
    const heapRetained = process.memoryUsage().heapUsed - heapBefore;
    if (i < warmup) continue;
    spent += parseMs + checkMs;
    rounds.push({ parseMs, checkMs, gcShare: gcMs / checkMs, heapRetained, treeRetained });
  }
  const mid = (pick) => median(rounds.map(pick));
  return {
    result,
    runs: rounds.length,
    parseMs: mid((r) => r.parseMs),
    checkMs: mid((r) => r.checkMs),
    checkOnlyMs: mid((r) => r.checkMs - r.parseMs),
    gcShare: mid((r) => r.gcShare),
    heapRetained: mid((r) => r.heapRetained),
    treeRetained: mid((r) => r.treeRetained),
    // Peak resident set of the process so far: sizes run smallest first, so this is the
    // peak while checking the largest graph yet.
    peakRss: process.resourceUsage().maxRSS * 1024,
  };
}

/**
 * The nodes of a tree: every object with a `kind` under `ast`, ranges not followed (they have
 * none). An explicit stack, as the tree of the largest graph is deep in lists.
 */
function countNodes(ast) {
  let nodes = 0;
  const stack = [ast];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push(value[i]);
    } else if (value !== null && typeof value === "object") {
      if (typeof value.kind === "string") nodes++;
      for (const key in value) if (key !== "range") stack.push(value[key]);
    }
  }
  return nodes;
}

function summarise(diagnostics) {
  const bySeverity = { error: 0, warning: 0, info: 0 };
  const byRule = {};
  for (const d of diagnostics) {
    bySeverity[d.severity] = (bySeverity[d.severity] ?? 0) + 1;
    byRule[d.rule] = (byRule[d.rule] ?? 0) + 1;
  }
  return { ...bySeverity, byRule };
}

async function measureSize({ agents, runs, warmup }, python) {
  const graph = generateGraph({ agents });
  const text = toSeam(graph);
  const path = `generated-${agents}.seam`;
  const edgesFile = fileURLToPath(new URL(`graph-${agents}.edges`, OUT));
  writeFileSync(edgesFile, toEdgeList(graph));
  progress(`scale: ${agents} agents, ${graph.edges.length} edges, ${(text.length / 1e6).toFixed(1)} MB of text`);

  const { result, ...timing } = await timeRounds(path, text, { runs, warmup });
  const model = result.graphs[0];
  const peer = runPythonJson(python, fileURLToPath(new URL("networkx_peer.py", import.meta.url)), [
    edgesFile,
    String(timing.runs),
  ]);
  const reachable = model ? model.agents.filter((a) => a.reachable).length : null;
  if (reachable !== peer.reachable) throw new Error(`${agents} agents: seam finds ${reachable} agents reachable, networkx ${peer.reachable}`);
  return {
    agents,
    edges: graph.edges.length,
    textBytes: Buffer.byteLength(text),
    ...timing,
    diagnostics: summarise(result.diagnostics),
    treeNodes: countNodes(result.ast),
    hopLimit: model?.hopLimit ?? null,
    reachable,
    peer,
    text,
    path,
  };
}

/**
 * Runs bench/check-process.mjs on `text` PROCESS_RUNS times: median wall time, the largest peak
 * RSS, and the output's length.
 * @throws Error when a run fails or two runs print different bytes
 */
function measureProcess(text, agents) {
  const file = fileURLToPath(new URL(`generated-${agents}.seam`, OUT));
  writeFileSync(file, text);
  const times = [];
  let rss = 0;
  let output;
  for (let i = 0; i < PROCESS_RUNS; i++) {
    const start = nowMs();
    const run = spawnSync(process.execPath, [fileURLToPath(new URL("check-process.mjs", import.meta.url)), file], { encoding: "utf8", maxBuffer: 1 << 30 });
    times.push(nowMs() - start);
    if (run.status !== 0) throw new Error(`check-process.mjs exited ${run.status ?? run.signal}: ${run.stderr}`);
    rss = Math.max(rss, Number(/maxrss (\d+)\s*$/.exec(run.stderr)?.[1]));
    if (output !== undefined && run.stdout !== output) throw new Error(`two whole-process checks of the ${agents}-agent graph printed different output`);
    output = run.stdout;
  }
  return { ms: median(times), peakRss: rss, outputBytes: Buffer.byteLength(output) };
}

export async function measureScale() {
  mkdirSync(OUT, { recursive: true });
  const python = findPython("networkx");
  const sizes = [];
  for (const size of SIZES) sizes.push(await measureSize(size, python));
  const largest = sizes[sizes.length - 1];
  progress(`scale: ${largest.agents} agents, ${PROCESS_RUNS} whole-process checks`);
  const whole = measureProcess(largest.text, largest.agents);
  for (const s of sizes) {
    delete s.text;
    delete s.path;
  }
  const slope = (pick, from = sizes) => logLogSlope(from.map((s) => ({ x: s.agents, y: pick(s) })));
  const exponents = {
    check: slope((s) => s.checkMs),
    parse: slope((s) => s.parseMs),
    // Clamped: at small sizes check-only can vanish in the noise of the parse time.
    checkOnly: slope((s) => Math.max(s.checkOnlyMs, 1e-3)),
    networkx: slope((s) => s.peer.total_ms),
    // The upper decade alone: at 10^3 fixed costs flatter the full-range slope.
    checkUpper: slope((s) => s.checkMs, sizes.slice(-2)),
    networkxUpper: slope((s) => s.peer.total_ms, sizes.slice(-2)),
  };
  const span = (list) => `10^${Math.log10(list[0].agents)}..10^${Math.log10(list[list.length - 1].agents)}`;
  const rows = [
    row(`${largest.agents} agents: whole process (seam check --format json) vs nx build+SCC+reach in-process`, fmtMs(whole.ms), fmtMs(largest.peer.total_ms), {
      ratio: whole.ms / largest.peer.total_ms,
      target: { op: "<=", value: 1 },
    }),
    row(`${largest.agents} agents: whole process peak RSS vs networkx process peak RSS`, fmtBytes(whole.peakRss), fmtBytes(largest.peer.peak_rss_bytes), {
      ratio: whole.peakRss / largest.peer.peak_rss_bytes,
      target: { op: "<=", value: 1.5 },
    }),
  ];
  for (const s of sizes) {
    const isLargest = s === largest;
    rows.push(
      row(`${s.agents} agents: parse+check vs nx build+SCC+reach`, fmtMs(s.checkMs), fmtMs(s.peer.total_ms), {
        ratio: s.checkMs / s.peer.total_ms,
        target: isLargest ? { op: "<=", value: 1 } : undefined,
      }),
      row(`${s.agents} agents: parse+check vs nx SCC+reach (build excluded)`, fmtMs(s.checkMs), fmtMs(s.peer.without_build_ms), {
        ratio: s.checkMs / s.peer.without_build_ms,
      }),
      row(
        `${s.agents} agents: parse only / check only; GC share of parse+check`,
        `${fmtMs(s.parseMs)} / ${fmtMs(s.checkOnlyMs)}; ${(s.gcShare * 100).toFixed(0)}%`,
        "",
      ),
      row(`${s.agents} agents: heap retained by result / peak RSS vs nx tracemalloc peak`, `${fmtBytes(s.heapRetained)} / ${fmtBytes(s.peakRss)}`, fmtBytes(s.peer.peak_bytes), {
        ratio: s.heapRetained / s.peer.peak_bytes,
      }),
      row(
        `${s.agents} agents: heap retained by the tree alone; its nodes; bytes per node`,
        `${fmtBytes(s.treeRetained)}; ${s.treeNodes.toLocaleString("en-US")}; ${(s.treeRetained / s.treeNodes).toFixed(0)} B`,
        "",
      ),
      row(
        `${s.agents} agents: diagnostics e/w/i; reachable (cross-check)`,
        `${s.diagnostics.error}/${s.diagnostics.warning}/${s.diagnostics.info}; ${s.reachable}`,
        `${s.peer.reachable}`,
      ),
    );
  }
  rows.push(
    row(`growth exponent, parse+check (${span(sizes)})`, exponents.check.toFixed(2), exponents.networkx.toFixed(2), {
      ratio: exponents.check,
      target: { op: "<=", value: 1.1, unit: "" },
    }),
    row(`growth exponent, parse+check (${span(sizes.slice(-2))})`, exponents.checkUpper.toFixed(2), exponents.networkxUpper.toFixed(2), {
      ratio: exponents.checkUpper,
    }),
    row(`growth exponent, parse only / check only (${span(sizes)})`, `${exponents.parse.toFixed(2)} / ${exponents.checkOnly.toFixed(2)}`, ""),
  );
  return {
    title: "Scale (in-process, median of k runs after warm-up; peer: networkx in Python)",
    data: { sizes, exponents, wholeProcess: whole },
    rows,
  };
}

runIfMain(import.meta.url, measureScale);
