// `npm run bench`: measures Seam's speed and memory beside a peer for each measure, in one run,
// and prints one table of ratios per section, then writes everything to bench/.out/results.json.
// Sections: startup (process start-up), scale (parse + check on big graphs vs networkx),
// runtime (accept() and loopSignature() vs Python, Ajv, JSON.parse, SHA-256), diff (seam diff and
// the JSON Lines replay of seam validate), lsp (the language server: didChange to diagnostics,
// completion, memory).
// Usage: node bench/run.mjs [section...]   (default: all sections, in that order)
// Exit code: 0 when every section ran, even if a target was missed (printed MISS); 1 when a
// section crashed. The bench runs against dist/, rebuilt first when older than src/.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { formatTable } from "./table.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SECTIONS = ["startup", "scale", "runtime", "diff", "python-target", "ingest", "lsp"];

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

/** Runs one section in a fresh Node process; returns its parsed result or the error text. */
function runSection(name) {
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    ["--expose-gc", `bench/${name}.mjs`],
    { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 << 20 },
  );
  const seconds = (Date.now() - started) / 1000;
  if (result.status !== 0) return { name, seconds, error: `exited ${result.status ?? result.signal}` };
  try {
    return { name, seconds, ...JSON.parse(result.stdout) };
  } catch {
    return { name, seconds, error: `printed no JSON result: ${result.stdout.slice(0, 200)}` };
  }
}

function main() {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((s) => !SECTIONS.includes(s));
  if (unknown.length) throw new Error(`unknown section(s): ${unknown.join(", ")}; known: ${SECTIONS.join(", ")}`);
  ensureBuilt();
  const info = machine();
  console.log(`# Seam bench: node ${info.node}, ${info.cpu}, ${info.cores} cores, ${info.memoryGiB} GiB, load ${info.loadAverage.join(" ")}`);
  const results = [];
  for (const name of wanted.length ? wanted : SECTIONS) {
    console.error(`[bench] ${name}...`);
    const section = runSection(name);
    results.push(section);
    console.log("");
    if (section.error) console.log(`## ${name}: CRASHED (${section.error}; see stderr above)`);
    else console.log(formatTable(`${section.title} [${section.seconds.toFixed(0)} s]`, section.rows));
  }
  const misses = results.flatMap((s) => (s.rows ?? []).filter((r) => r.pass === false).map((r) => `${s.name}: ${r.measure}`));
  const crashed = results.filter((s) => s.error).map((s) => s.name);
  console.log("");
  console.log(misses.length ? `MISS (${misses.length}):\n  ${misses.join("\n  ")}` : "All targets met.");
  if (crashed.length) console.log(`CRASHED: ${crashed.join(", ")}`);
  mkdirSync(`${ROOT}bench/.out`, { recursive: true });
  writeFileSync(`${ROOT}bench/.out/results.json`, JSON.stringify({ machine: info, at: new Date().toISOString(), sections: results }, null, 2) + "\n");
  console.log("results: bench/.out/results.json");
  process.exitCode = crashed.length ? 1 : 0;
}

main();
