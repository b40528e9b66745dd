// Start-up: the wall time of a whole `seam check` process, as an editor hook, a pre-commit hook
// or CI pays it, beside `node -e 0` (the floor no Node CLI can beat). The ratio shows what
// Seam adds on top of Node itself: module loading (commander, chevrotain, ajv...), parser
// self-analysis and the check. Runs are interleaved so drift on a shared machine hits all three.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { median, nowMs, quantile } from "./stats.mjs";
import { fmtMs, row } from "./table.mjs";
import { progress, runIfMain, scaled } from "./section.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNS = scaled(25, 3);

/** Spawns `node ...args` once; returns the wall time in ms. Throws on a crash (exit >= 2). */
function timeProcess(args) {
  const start = nowMs();
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] });
  const elapsed = nowMs() - start;
  // seam check exits 0 (clean) or 1 (errors found); anything else is a crash or usage error.
  if (result.status === null || result.status >= 2) {
    throw new Error(`node ${args.join(" ")} exited ${result.status ?? result.signal}:\n${result.stderr}`);
  }
  return elapsed;
}

export function measureStartup() {
  const examples = readdirSync(new URL("../examples/", import.meta.url)).filter((f) => f.endsWith(".seam")).sort();
  if (examples.length === 0) throw new Error("examples/ holds no .seam file");
  const example = `examples/${examples[0]}`;
  const commands = {
    floor: ["-e", "0"],
    one: ["bin/seam.js", "check", example],
    all: ["bin/seam.js", "check", "examples"],
  };
  const times = { floor: [], one: [], all: [] };
  for (const args of Object.values(commands)) timeProcess(args); // warm the file cache
  progress(`startup: ${RUNS} runs each of node -e 0, seam check ${example}, seam check examples`);
  for (let i = 0; i < RUNS; i++) for (const [key, args] of Object.entries(commands)) times[key].push(timeProcess(args));

  const stats = Object.fromEntries(
    Object.entries(times).map(([key, list]) => [key, { median: median(list), p90: quantile(list, 0.9) }]),
  );
  const { floor, one, all } = stats;
  return {
    title: `Start-up (process wall time, ${RUNS} runs; peer: node -e 0)`,
    data: { example, examples: examples.length, runs: RUNS, stats },
    rows: [
      row(`seam check ${example}, median`, fmtMs(one.median), fmtMs(floor.median), {
        ratio: one.median / floor.median,
        target: { op: "<=", value: 1.3 },
      }),
      row(`seam check ${example}, p90`, fmtMs(one.p90), fmtMs(floor.p90), { ratio: one.p90 / floor.p90 }),
      row(`seam check examples (${examples.length} files), median`, fmtMs(all.median), fmtMs(floor.median), {
        ratio: all.median / floor.median,
      }),
      row(`seam check examples (${examples.length} files), p90`, fmtMs(all.p90), fmtMs(floor.p90), {
        ratio: all.p90 / floor.p90,
      }),
    ],
  };
}

runIfMain(import.meta.url, measureStartup);
