/**
 * Reads one user file for the CLI: bounded in size, decoded as strict UTF-8. Failures come back
 * as a {@link PathProblem} (never thrown), so a command can report them in one line and go on.
 */
import { open } from "node:fs/promises";
import { resolve } from "node:path";
import { createSourceFile, type SourceFile } from "../core/source-file.js";
import type { PathProblem } from "./find-seam-files.js";
import { describeFsError } from "./fs-errors.js";

/** Largest file Seam reads, in bytes (10 MiB): a handoff graph is a few kilobytes. */
export const MAX_SOURCE_BYTES = 10 * 1024 * 1024;

/** A file read and decoded, or why it could not be. */
export type ReadResult = { readonly ok: true; readonly file: SourceFile } | { readonly ok: false; readonly problem: PathProblem };

/**
 * Reads `path` (relative to `cwd`) into a {@link SourceFile} whose `path` is `path` as given.
 * The size is checked from the open file before reading, so a huge file costs nothing. A byte
 * order mark is kept (the lexer skips it, and offsets stay those of the file).
 *
 * @param path - the path as the user gave it
 * @param cwd - folder that a relative `path` starts from
 * @param maxBytes - size cap in bytes (default {@link MAX_SOURCE_BYTES})
 */
export async function readSourceFile(path: string, cwd: string, maxBytes = MAX_SOURCE_BYTES): Promise<ReadResult> {
  let bytes: Uint8Array;
  try {
    const handle = await open(resolve(cwd, path), "r");
    try {
      const info = await handle.stat();
      if (info.isDirectory()) {
        return { ok: false, problem: { path, problem: "is a folder, not a file", hint: "pass a file" } };
      }
      if (info.size > maxBytes) {
        return {
          ok: false,
          problem: {
            path,
            problem: `${formatMegabytes(info.size)} is over the ${formatMegabytes(maxBytes)} limit`,
            hint: "split the graphs into smaller files",
          },
        };
      }
      bytes = await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { ok: false, problem: { path, ...describeFsError(error) } };
  }
  // A file that grew between stat and read is still held to the cap.
  if (bytes.byteLength > maxBytes) {
    return {
      ok: false,
      problem: { path, problem: `over the ${formatMegabytes(maxBytes)} limit`, hint: "split the graphs into smaller files" },
    };
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { ok: false, problem: { path, problem: "is not valid UTF-8 text", hint: "save the file as UTF-8" } };
  }
  return { ok: true, file: createSourceFile(path, text) };
}

function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}
