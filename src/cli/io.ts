/**
 * The CLI's window on the world. `run()` takes one of these instead of touching `process`
 * directly, so tests can drive every command in-process and read what it printed.
 */
import { fstatSync, type Stats } from "node:fs";

/** Where a command writes and what it may know about its surroundings. */
export interface CliIo {
  /** Results (diagnostics, JSON, pictures). Text is written as given; add your own newlines. */
  stdout(text: string): void;
  /** Errors and progress meant for people. */
  stderr(text: string): void;
  /** Whether stdout is a terminal: colour and other decoration only then. */
  readonly stdoutIsTTY: boolean;
  /** Relative paths in arguments and output are relative to this folder. */
  readonly cwd: string;
  /** Environment variables (`NO_COLOR`, `FORCE_COLOR`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Standard input, chunk by chunk as it comes (`seam fmt --stdin`); absent where there is none.
   * Read it through `readStdinBounded` (`read-stdin.ts`), which holds it to the size limit.
   */
  readonly readStdin?: () => AsyncIterable<Uint8Array>;
  /** What standard input is (`fstat`), so a device is refused unread; undefined for a terminal or when unknown. */
  readonly statStdin?: () => Stats | undefined;
}

/** A {@link CliIo} bound to the running process. */
export function createProcessIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY === true,
    cwd: process.cwd(),
    env: process.env,
    readStdin: () => process.stdin,
    statStdin: () => {
      // A terminal is a device too, but there a person types the text and ends it.
      if (process.stdin.isTTY === true) return undefined;
      try {
        return fstatSync(0);
      } catch {
        return undefined;
      }
    },
  };
}
