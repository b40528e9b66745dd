// `npm run bench`: measures Seam's speed and memory beside a peer for each measure, in one run,
// and prints one table of ratios per section, then writes everything to bench/.out/results.json
// (scripts/bench-tables.mjs turns that into the tables of docs/performance.md).
// Sections (bench/sections.mjs): startup (process start-up), scale (parse + check on big graphs vs
// networkx), runtime (accept() and loopSignature() vs Python, Ajv, JSON.parse, SHA-256), diff
// (seam diff and the JSON Lines replay of seam validate), python-target (the emitted Python module
// vs jsonschema and fastjsonschema), ingest (event log, OpenTelemetry, seam report), redis (the
// Redis store vs SET NX and redis-benchmark), lsp (the language server).
// Usage: node bench/run.mjs [--smoke] [section...]   (default: all sections, in that order)
//   --smoke: every section on small inputs (CI runs this): proves each still runs and passes its
//   cross-checks; its figures are not for reading and its targets are not judged.
// Each section runs in its own Node process, in its own process group, killed (the whole group,
// by the child's PID) when it runs past its timeout.
// Exit code: 0 when every section ran, even if a target was missed (printed MISS); 1 when a
// section crashed, timed out or failed a cross-check. The bench runs against dist/, rebuilt
// first when older than src/.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { SECTIONS } from "./sections.mjs";
import { formatTable } from "./table.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Seconds a section may run: a full run measures for minutes, a smoke run for seconds. */
const TIMEOUT_S = { full: 20 * 60, smoke: 90 };

/** Newest modification time (ms) of any file under `dir`, or -Infinity when there is none. */
function newestMtime(dir) {
  if (!existsSync(dir)) return -Infinity;
  let newest = -Infinity;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
  }
  return newest;
}

/** Rebuilds dist/ when it is missing or older than src/ (the bench must measure current code). */
function ensureBuilt() {
  if (newestMtime(`${ROOT}dist`) >= newestMtime(`${ROOT}src`)) return;
  console.error("dist/ is missing or older than src/: npm run build");
  const result = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
  // tsc still emits when it reports type errors; only a missing entry point stops the bench.
  if (result.status !== 0) console.error(`warning: npm run build exited ${result.status}; measuring what it emitted`);
  if (!existsSync(`${ROOT}dist/cli/main.js`)) throw new Error("dist/cli/main.js is missing after the build");
}

function machine() {
  const cpus = os.cpus();
  return {
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

/**
 * Runs one section in a fresh Node process (its own process group, so that redis-server, Python
 * or a language server it started die with it); resolves with its parsed result or the error.
 */
function runSection(name, { smoke }) {
  const started = Date.now();
  // The 1, 5 and 15 minute load averages as the section starts: a shared machine's load moves.
  const loadAverage = os.loadavg().map((l) => Number(l.toFixed(2)));
  const timeoutS = smoke ? TIMEOUT_S.smoke : TIMEOUT_S.full;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--expose-gc", `bench/${name}.mjs`], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
      detached: true,
      env: { ...process.env, SEAM_BENCH_SMOKE: smoke ? "1" : "0" },
    });
    let stdout = "";
    let timedOut = false;
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => (stdout += chunk));
    // The negative PID names the child's process group: the section and what it started.
    const killGroup = () => {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group has already exited.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutS * 1000);
    // Ctrl-C stops the bench: the section's group is not ours to leave behind.
    const interrupted = () => {
      killGroup();
      process.exit(130);
    };
    process.once("SIGINT", interrupted);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      process.off("SIGINT", interrupted);
      const seconds = (Date.now() - started) / 1000;
      if (timedOut) return resolve({ name, seconds, loadAverage, error: `ran past its timeout of ${timeoutS} s and was killed` });
      if (code !== 0) return resolve({ name, seconds, loadAverage, error: `exited ${code ?? signal}` });
      try {
        resolve({ name, seconds, loadAverage, ...JSON.parse(stdout) });
      } catch {
        resolve({ name, seconds, loadAverage, error: `printed no JSON result: ${stdout.slice(0, 200)}` });
      }
    });
  });
}

async function main() {
  const args = process.argv.slice(2);
  const smoke = args.includes("--smoke");
  const wanted = args.filter((a) => a !== "--smoke");
  const unknown = wanted.filter((s) => !SECTIONS.includes(s));
  if (unknown.length) throw new Error(`unknown section(s): ${unknown.join(", ")}; known: ${SECTIONS.join(", ")}`);
  ensureBuilt();
  // The tables say when the run started (the load average beside it is read now too).
  const startedAt = new Date().toISOString();
  const info = machine();
  console.log(`# Seam bench${smoke ? " (smoke: small inputs, figures not for reading)" : ""}: node ${info.node}, ${info.cpu}, ${info.cores} cores, ${info.memoryGiB} GiB, load ${info.loadAverage.join(" ")}`);
  const results = [];
  for (const name of wanted.length ? wanted : SECTIONS) {
    console.error(`[bench] ${name}...`);
    const section = await runSection(name, { smoke });
    results.push(section);
    console.log("");
    if (section.error) console.log(`## ${name}: CRASHED (${section.error}; see stderr above)`);
    else console.log(formatTable(`${section.title} [${section.seconds.toFixed(0)} s]`, section.rows));
  }
  const misses = results.flatMap((s) => (s.rows ?? []).filter((r) => r.pass === false).map((r) => `${s.name}: ${r.measure}`));
  const crashed = results.filter((s) => s.error).map((s) => s.name);
  console.log("");
  if (!smoke) console.log(misses.length ? `MISS (${misses.length}):\n  ${misses.join("\n  ")}` : "All targets met.");
  if (crashed.length) console.log(`CRASHED: ${crashed.join(", ")}`);
  else if (smoke) console.log(`smoke: all ${results.length} sections ran and passed their cross-checks`);
  mkdirSync(`${ROOT}bench/.out`, { recursive: true });
  const file = smoke ? "smoke-results.json" : "results.json";
  info.loadAverageAfter = os.loadavg().map((l) => Number(l.toFixed(2)));
  writeFileSync(`${ROOT}bench/.out/${file}`, JSON.stringify({ machine: info, at: startedAt, smoke, sections: results }, null, 2) + "\n");
  console.log(`results: bench/.out/${file}`);
  process.exitCode = crashed.length ? 1 : 0;
}

await main();
