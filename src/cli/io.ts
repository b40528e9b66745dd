/**
 * The CLI's window on the world. `run()` takes one of these instead of touching `process`
 * directly, so tests can drive every command in-process and read what it printed.
 */

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
  /** All of standard input, as bytes (`seam fmt --stdin`); absent where there is none. */
  readonly readStdin?: () => Promise<Uint8Array>;
}

/** A {@link CliIo} bound to the running process. */
export function createProcessIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdoutIsTTY: process.stdout.isTTY === true,
    cwd: process.cwd(),
    env: process.env,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
  };
}
