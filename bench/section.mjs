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
