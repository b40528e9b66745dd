/**
 * Whether output gets ANSI colour: only on a terminal, unless the environment says otherwise.
 * `NO_COLOR` (any non-empty value, https://no-color.org) turns colour off and wins; `FORCE_COLOR`
 * turns it on even when piped, except `FORCE_COLOR=0` or `false` (the Node/chalk convention).
 */
import type { CliIo } from "./io.js";

/** Decides colour for text written to `io.stdout`. */
export function useColor(io: Pick<CliIo, "env" | "stdoutIsTTY">): boolean {
  const noColor = io.env["NO_COLOR"];
  if (noColor !== undefined && noColor !== "") return false;
  const force = io.env["FORCE_COLOR"];
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  return io.stdoutIsTTY;
}
