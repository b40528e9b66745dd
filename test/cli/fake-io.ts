/**
 * A {@link CliIo} for in-process CLI tests: records what a command printed.
 */
import type { CliIo } from "../../src/cli/io.js";

/** A fake io plus the text written to each stream. */
export interface FakeIo extends CliIo {
  readonly out: () => string;
  readonly err: () => string;
}

/** Creates a fake io rooted at `cwd`; not a TTY and no colour variables unless given. */
export function createFakeIo(cwd: string, options: { tty?: boolean; env?: Record<string, string | undefined> } = {}): FakeIo {
  const out: string[] = [];
  const err: string[] = [];
  return {
    stdout: (text) => void out.push(text),
    stderr: (text) => void err.push(text),
    stdoutIsTTY: options.tty ?? false,
    cwd,
    env: options.env ?? {},
    out: () => out.join(""),
    err: () => err.join(""),
  };
}
