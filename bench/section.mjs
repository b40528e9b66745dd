// Lets each bench section run in its own Node process (fresh heap and JIT, `--expose-gc` for the
// memory figures): run.mjs spawns `node --expose-gc bench/<section>.mjs`, the section prints its
// result as one JSON document on stdout, and progress goes to stderr.
import { fileURLToPath } from "node:url";

/** Runs `measure()` and prints its JSON result when `moduleUrl` is the script Node was started with. */
export function runIfMain(moduleUrl, measure) {
  if (process.argv[1] !== fileURLToPath(moduleUrl)) return;
  Promise.resolve()
    .then(measure)
    .then((result) => process.stdout.write(JSON.stringify(result) + "\n"))
    .catch((error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exitCode = 1;
    });
}

/** Writes a progress line to stderr (stdout carries the result). */
export const progress = (message) => process.stderr.write(`  ${message}\n`);

/**
 * True in `npm run bench -- --smoke` (run.mjs sets SEAM_BENCH_SMOKE=1 for each section): every
 * section runs on small inputs, so that CI proves it still runs and still cross-checks; its
 * figures are not for reading.
 */
export const SMOKE = process.env.SEAM_BENCH_SMOKE === "1";

/** `full` in a full run, `smoke` in a smoke run. */
export const scaled = (full, smoke) => (SMOKE ? smoke : full);

/**
 * What a section does when a real component it measures (redis-server, a Python library) is
 * missing: outside CI it skips those rows with one line naming the package; under CI=true the
 * section fails, since CI installs them (.ci/run) and a skip there would hide a broken bench.
 */
export function missing(what, install) {
  const line = `${what} is missing (${install})`;
  if (process.env.CI === "true") throw new Error(`${line}; under CI=true this is a failure, not a skip`);
  progress(`${line}: its rows are skipped`);
}
