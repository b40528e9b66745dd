// Diff and replay: the costs of the rollout checks.
//   - Replay: `seam validate --as '*'` of a JSON Lines log of 10^5 recorded envelopes (the hop-2
//     envelopes of bench/envelopes.mjs on bench/fixtures/graph.seam, each with its own handoff_id;
//     every 10th one without provenance, so refused), streamed by replayJsonLines with the
//     acceptors `seam validate` builds, beside the floor: node:readline + JSON.parse of the
//     same file. Reports the rate and the peak heap while replaying, as a ratio to the log's size
//     (bounded memory: the ratio must stay far below 1 however large the log).
//   - Diff: diffFiles() on the largest example against itself reformatted and against an edited
//     copy, beside check() of the same two texts (the work diff starts from).
import { createReadStream, createWriteStream, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { loadCompiledModule, makeHandoffs } from "./envelopes.mjs";
import { progress, runIfMain, scaled } from "./section.mjs";
import { median, nowMs } from "./stats.mjs";
import { fmtBytes, fmtMs, row } from "./table.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = fileURLToPath(new URL("./.out/diff/", import.meta.url));
const COUNT = scaled(100_000, 2_000);
const REPLAY_ROUNDS = scaled(3, 1);
const DIFF_ROUNDS = scaled(200, 5);

const { checkText } = await import("../dist/analysis/check.js");
const { createGraphAccept } = await import("../dist/emit/graph-accept.js");
const { emptySummary, replayJsonLines } = await import("../dist/cli/replay.js");
const { diffFiles } = await import("../dist/diff/diff.js");

/** Writes COUNT envelopes, made 1,000 at a time by the compiled module's builders. */
async function writeLog(path) {
  const compiled = await loadCompiledModule();
  const out = createWriteStream(path);
  let pool = [];
  for (let i = 0; i < COUNT; i++) {
    if (i % 1000 === 0) pool = makeHandoffs(compiled, Math.min(1000, COUNT - i), i).next;
    const envelope = { ...pool[i % 1000] };
    if (i % 10 === 0) delete envelope.provenance;
    if (!out.write(`${JSON.stringify(envelope)}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

/** Runs `work` while sampling the heap every 5 ms; returns its time and the peak heap above the start. */
async function withPeakHeap(work) {
  globalThis.gc?.();
  const start = process.memoryUsage().heapUsed;
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 5);
  const t0 = nowMs();
  let result;
  try {
    result = await work();
  } finally {
    clearInterval(timer);
  }
  const ms = nowMs() - t0;
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { ms, peak: peak - start, result };
}

async function readlineFloor(path) {
  let n = 0;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    if (line !== "") {
      JSON.parse(line);
      n++;
    }
  }
  return n;
}

function largestExample() {
  const dir = `${ROOT}examples/`;
  const [name] = readdirSync(dir)
    .filter((f) => f.endsWith(".seam"))
    .sort((a, b) => statSync(dir + b).size - statSync(dir + a).size);
  return { name, text: readFileSync(dir + name, "utf8") };
}

function side(path, text) {
  const result = checkText(path, text);
  return { file: result.file, graphs: result.graphs };
}

export async function measureDiff() {
  mkdirSync(OUT, { recursive: true });
  const log = `${OUT}replay.jsonl`;
  progress(`writing ${COUNT} envelopes...`);
  await writeLog(log);
  const bytes = statSync(log).size;
  const graph = checkText("graph.seam", readFileSync(`${ROOT}bench/fixtures/graph.seam`, "utf8")).graphs[0];
  // As `seam validate --as '*'` builds them (src/cli/commands/validate.ts).
  const { accept } = createGraphAccept(graph, { anyReceiver: true });

  progress("replaying...");
  const floor = [];
  const replays = [];
  let peak = 0;
  let summary;
  for (let round = 0; round < REPLAY_ROUNDS; round++) {
    floor.push((await withPeakHeap(() => readlineFloor(log))).ms);
    const run = await withPeakHeap(async () => {
      const s = emptySummary();
      await replayJsonLines(log, OUT, accept, { as: "*", onBadLine: () => {} }, s);
      return s;
    });
    replays.push(run.ms);
    peak = Math.max(peak, run.peak);
    summary = run.result;
  }
  if (summary.envelopes !== COUNT || summary.refused !== COUNT / 10) throw new Error(`replay counted ${JSON.stringify(summary)}`);
  const replayMs = median(replays);
  const floorMs = median(floor);

  progress("diffing the largest example...");
  const { name, text } = largestExample();
  const edited = text.replace(/max_rounds (\d+)/, (_, n) => `max_rounds ${Number(n) + 1}`);
  const reformatted = `// moved\n${text.replace(/\n\s*\n/g, "\n")}`;
  const diffTimes = [];
  const checkTimes = [];
  for (let round = 0; round < DIFF_ROUNDS; round++) {
    let t0 = nowMs();
    const a = side("old.seam", text);
    const b = side("new.seam", edited);
    const c = side("same.seam", reformatted);
    checkTimes.push(nowMs() - t0);
    t0 = nowMs();
    const changed = diffFiles(a, b);
    const same = diffFiles(a, c);
    diffTimes.push(nowMs() - t0);
    if (changed.length === 0 || same.length !== 0) throw new Error(`diff of ${name}: ${changed.length} findings edited, ${same.length} reformatted`);
  }
  const diffMs = median(diffTimes);
  const checkMs = median(checkTimes);
  rmSync(log, { force: true });

  return {
    title: `Diff and replay (${COUNT} envelopes, ${fmtBytes(bytes)}; largest example ${name})`,
    rows: [
      row("seam validate replay vs readline + JSON.parse (time ratio)", `${Math.round(COUNT / (replayMs / 1000))} envelopes/s`, `${Math.round(COUNT / (floorMs / 1000))} lines/s`, {
        ratio: replayMs / floorMs,
        target: { op: "<=", value: 1.5 },
      }),
      row("replay peak heap vs the log's size", fmtBytes(peak), fmtBytes(bytes), { ratio: peak / bytes, target: { op: "<=", value: 0.25 } }),
      row("diff (edited + reformatted) vs checking the three texts", fmtMs(diffMs), fmtMs(checkMs), { ratio: diffMs / checkMs }),
    ],
  };
}

runIfMain(import.meta.url, measureDiff);
