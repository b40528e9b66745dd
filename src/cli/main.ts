/**
 * The process entry point used by `bin/seam.js`: binds {@link run} to the real process and sets
 * `process.exitCode` (rather than calling `process.exit`, so piped output is flushed first).
 */
import { createProcessIo } from "./io.js";
import { run } from "./run.js";

/** Runs `seam` with `process.argv`; resolves when the command is done. Never rejects. */
export async function main(): Promise<void> {
  // `seam check . | head` closes the pipe early: stop quietly instead of crashing on EPIPE.
  // Any other write failure (a full disk behind a redirect) is an output problem: exit 2.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    process.stderr.write(`seam: cannot write the output: ${error.message}\n`);
    process.exit(2);
  });
  process.exitCode = await run(process.argv.slice(2), createProcessIo());
}
