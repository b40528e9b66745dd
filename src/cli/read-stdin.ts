/**
 * Reads standard input for a command that takes its text from there (`seam fmt --stdin`), held
 * to the size limit and the device refusal that files get (`read-source-file.ts`), so no input
 * can make Seam read for ever or hold more than the limit.
 */
import { MAX_SOURCE_BYTES, megabytes, sizeProblem } from "../core/source-limit.js";
import { notRegularProblem } from "./file-kind.js";
import type { PathProblem } from "./find-seam-files.js";
import type { CliIo } from "./io.js";
import { GRAPH_TOO_LARGE_HINT } from "./read-source-file.js";

/** How standard input is named in Seam's messages. */
export const STDIN_NAME = "<stdin>";

/** All of standard input, or why it was not read to the end. */
export type StdinResult = { readonly ok: true; readonly bytes: Uint8Array } | { readonly ok: false; readonly problem: PathProblem };

/**
 * Reads `io`'s standard input chunk by chunk, and stops as soon as more than `maxBytes` have
 * come (a pipe does not say its size, and `/dev/zero` behind one never ends). A device (other
 * than a terminal, where a person types) is refused before any read, as a device path is; a
 * regular file over the limit is refused from its size, with the words a file path gets.
 *
 * @param maxBytes - the cap (default {@link MAX_SOURCE_BYTES}, the one limit of `.seam` sources)
 */
export async function readStdinBounded(io: CliIo, maxBytes = MAX_SOURCE_BYTES): Promise<StdinResult> {
  const refuse = (problem: string, hint: string): StdinResult => ({ ok: false, problem: { path: STDIN_NAME, problem, hint } });
  if (io.readStdin === undefined) return refuse("cannot be read here", "pass a file instead");
  const info = io.statStdin?.();
  if (info !== undefined && (info.isCharacterDevice() || info.isBlockDevice())) {
    return refuse(notRegularProblem(info), "send the text through a pipe or from a file");
  }
  if (info?.isFile() === true && info.size > maxBytes) return refuse(sizeProblem(info.size, maxBytes), GRAPH_TOO_LARGE_HINT);
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Leaving the loop early ends the stream: nothing more is read.
  for await (const chunk of io.readStdin()) {
    total += chunk.byteLength;
    if (total > maxBytes) return refuse(`is more than the ${megabytes(maxBytes) ?? `${maxBytes} bytes`} limit`, GRAPH_TOO_LARGE_HINT);
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}
