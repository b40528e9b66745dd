/**
 * Reads one user file for the CLI: bounded in size, decoded as strict UTF-8. Failures come back
 * as a {@link PathProblem} (never thrown), so a command can report them in one line and go on.
 *
 * The reads are synchronous: a command reads its files one after the other anyway, and the
 * first asynchronous call of a process starts libuv's thread pool and loads `node:fs/promises`,
 * which together cost `seam check` of one file more than reading it.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { resolve } from "node:path";
import { createSourceFile, type SourceFile } from "../core/source-file.js";
import type { PathProblem } from "./find-seam-files.js";
import { notRegularProblem } from "./file-kind.js";
import { describeFsError } from "./fs-errors.js";

import { MAX_SOURCE_BYTES, megabytes, sizeProblem } from "../core/source-limit.js";
import { decodeUtf8 } from "../core/utf8.js";

/** Largest file Seam reads, in bytes (the one limit of `core/source-limit.ts`). */
export { MAX_SOURCE_BYTES };

/** What to do about a `.seam` file over the limit (the default of {@link ReadOptions.tooLargeHint}). */
export const GRAPH_TOO_LARGE_HINT = "split the graphs into smaller files";

/** What to do about an envelope over the limit: envelopes point at artefacts, they do not carry them. */
export const ENVELOPE_TOO_LARGE_HINT = "an envelope carries pointers to its artefacts, not their contents";

/** Options of {@link readSourceFile}. */
export interface ReadOptions {
  /** Size cap in bytes (default {@link MAX_SOURCE_BYTES}). */
  readonly maxBytes?: number;
  /** What to do when the file is over the cap (default {@link GRAPH_TOO_LARGE_HINT}). */
  readonly tooLargeHint?: string;
}

/** A file read and decoded, or why it could not be. */
export type ReadResult = { readonly ok: true; readonly file: SourceFile } | { readonly ok: false; readonly problem: PathProblem };

/** Bytes asked for per read past the size the file had when it was opened. */
const CHUNK_BYTES = 64 * 1024;

/**
 * How a file is opened: read-only and without waiting. A FIFO opened for reading blocks until
 * some process opens it for writing, which may be never; with `O_NONBLOCK` the open returns at
 * once, and the `fstat` that follows refuses it. (Windows has no such flag and no FIFOs.)
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads `path` (relative to `cwd`) into a {@link SourceFile} whose `path` is `path` as given.
 * Only a regular file is read (symbolic links followed): a FIFO, socket or device (`/dev/zero`,
 * a terminal) is refused without a single blocking read, since it may never end or never
 * answer. A file over the cap is refused from its size before any byte is read, and one that
 * grows while it is read is held to the cap as well, so no input can make Seam read for ever or
 * hold more than the cap. A byte order mark is kept (the lexer skips it, and offsets stay those
 * of the file).
 *
 * @param path - the path as the user gave it
 * @param cwd - folder that a relative `path` starts from
 */
export function readSourceFile(path: string, cwd: string, options: ReadOptions = {}): ReadResult {
  const maxBytes = options.maxBytes ?? MAX_SOURCE_BYTES;
  const hint = options.tooLargeHint ?? GRAPH_TOO_LARGE_HINT;
  let bytes: Uint8Array | undefined;
  try {
    const fd = openSync(resolve(cwd, path), OPEN_FLAGS);
    try {
      const info = fstatSync(fd);
      if (info.isDirectory()) {
        return { ok: false, problem: { path, problem: "is a folder, not a file", hint: "pass a file" } };
      }
      if (!info.isFile()) {
        return { ok: false, problem: { path, problem: notRegularProblem(info), hint: "pass a regular file: save the text to a file first" } };
      }
      if (info.size > maxBytes) {
        return { ok: false, problem: { path, problem: sizeProblem(info.size, maxBytes), hint } };
      }
      bytes = readAtMost(fd, maxBytes, info.size + 1);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { ok: false, problem: { path, ...describeFsError(error) } };
  }
  if (bytes === undefined) {
    return { ok: false, problem: { path, problem: `grew while it was read and is more than the ${megabytes(maxBytes) ?? `${maxBytes} bytes`} limit`, hint } };
  }
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) return { ok: false, problem: { path: `${path}:${decoded.at.line}:${decoded.at.column}`, problem: decoded.problem, hint: "save the file as UTF-8" } };
  return { ok: true, file: createSourceFile(path, decoded.text) };
}

/**
 * Reads until the end of the file, or until more than `maxBytes` have come (then `undefined`).
 * Never holds more than `maxBytes + 1` bytes plus one chunk.
 */
function readAtMost(fd: number, maxBytes: number, firstChunk: number): Uint8Array | undefined {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let size = Math.max(1, Math.min(firstChunk, maxBytes + 1));
  for (;;) {
    const buffer = new Uint8Array(size);
    const bytesRead = readSync(fd, buffer, 0, size, null);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) return undefined;
    size = Math.min(CHUNK_BYTES, maxBytes + 1 - total);
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
