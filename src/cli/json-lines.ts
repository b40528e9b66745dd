/**
 * Reads a JSON Lines file (https://jsonlines.org: UTF-8, one JSON value per line, `\n` or `\r\n`
 * between lines) as a stream, one line at a time, in bounded memory: the file is read in chunks,
 * and a line longer than the cap is skipped (reported as too long) instead of being held, so no
 * input, however large, makes the reader hold more than the cap plus one read.
 *
 * Readline (`node:readline`) would hold a line of any length in full, which is why lines are
 * split here. Text is decoded a chunk at a time, and the bytes are checked to be UTF-8 beside it,
 * a line at a time where a chunk is not: a line with bad bytes is reported where they start, as
 * `parseEnvelope` refuses such a body, not read with U+FFFD in their place.
 */
import { isUtf8 } from "node:buffer";
import { resolve } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { utf8Fault } from "../core/utf8.js";
import { openLog } from "./open-log.js";

/**
 * Longest line kept, in UTF-16 code units (10 MB, as `.json` envelope files are read): well past
 * the 1 MiB a service takes (`parseEnvelope`), so that a line over that is still held, refused
 * as a service refuses it and counted against the edge it names.
 */
export const MAX_LINE = 10 * 1024 * 1024;

/**
 * Bytes read at a time, into one buffer reused for the whole file: each read is a trip through
 * libuv's thread pool, and four times fewer of them (than a read stream's 64 KiB chunks) take
 * half the time reading costs a replay.
 */
const READ_BYTES = 256 * 1024;

/**
 * Bytes decoded at a time (a chunk): its text stays below V8's largest regular object (128 KiB),
 * since a larger string is a large object, slower to make than four smaller ones.
 */
const CHUNK = 64 * 1024;

/**
 * One line of the file: its 1-based number and text (no line break), or why it was skipped: too
 * long, or bytes that are not UTF-8 from its 1-based `column` (UTF-16 code units) on.
 */
export type JsonLine =
  | { readonly line: number; readonly text: string }
  | { readonly line: number; readonly tooLong: true }
  | { readonly line: number; readonly column: number; readonly notUtf8: string };

const NEWLINE = 0x0a;

/** The line whose bytes (the line break left out) are not UTF-8, numbered `line`. */
function notUtf8(line: number, bytes: Uint8Array): JsonLine {
  const { before, problem } = utf8Fault(bytes);
  return { line, column: before.length + 1, notUtf8: problem };
}

/**
 * The lines that `chunk` completes and that are not UTF-8, by their order among those lines
 * (0: the line `pendingBytes` began), found by one check of the lines wholly inside the chunk
 * and one of the line it ends; the lines of a chunk that is not UTF-8 are then checked one by one.
 * Undefined when every line is UTF-8. A line break (an ASCII byte) is never part of a character,
 * so the lines' bytes can be checked apart.
 */
function badLines(chunk: Buffer, firstBreak: number, pendingBytes: readonly Buffer[], from: number): Map<number, JsonLine> | undefined {
  let bad: Map<number, JsonLine> | undefined;
  const ended = pendingBytes.length === 0 ? chunk.subarray(0, firstBreak) : Buffer.concat([...pendingBytes, chunk.subarray(0, firstBreak)]);
  if (!isUtf8(ended)) (bad ??= new Map()).set(0, notUtf8(from, ended));
  const lastBreak = chunk.lastIndexOf(NEWLINE);
  const inside = chunk.subarray(firstBreak + 1, lastBreak);
  if (lastBreak > firstBreak && !isUtf8(inside)) {
    for (let start = 0, order = 1; start <= inside.length; order++) {
      const end = inside.indexOf(NEWLINE, start);
      const bytes = inside.subarray(start, end === -1 ? inside.length : end);
      if (!isUtf8(bytes)) (bad ??= new Map()).set(order, notUtf8(from + order, bytes));
      if (end === -1) break;
      start = end + 1;
    }
  }
  return bad;
}

/** Options of {@link readJsonLines}. */
export interface JsonLinesOptions {
  /** Longest line kept (default {@link MAX_LINE}). */
  readonly maxLine?: number;
  /** Called with the number of code units buffered after each chunk (tests bound it). */
  readonly onBuffered?: (units: number) => void;
}

/**
 * The non-blank lines of `path` (relative to `cwd`), in order, as the lines completed by each
 * chunk decoded (an array per chunk, never empty): one await per chunk, not one per line, which
 * for lines of a few kilobytes costs as much as reading them.
 * @throws what `openLog` throws (a device is refused: it could be read for ever), or the
 *   `node:fs` error of a failed read; callers turn either into a one-line problem
 *   (`describeLogError`). A named pipe is read until its writer closes it.
 */
export async function* readJsonLines(path: string, cwd: string, options: JsonLinesOptions = {}): AsyncGenerator<JsonLine[]> {
  const maxLine = options.maxLine ?? MAX_LINE;
  const decoder = new StringDecoder("utf8");
  let pending = "";
  // The bytes of the pending line (copies: the read buffers are reused), checked once it ends.
  let pendingBytes: Buffer[] = [];
  let skipping = false;
  let line = 1;
  const finish = (text: string, bad: JsonLine | undefined): JsonLine | undefined => {
    const current = line++;
    if (skipping) {
      skipping = false;
      return { line: current, tooLong: true };
    }
    if (bad !== undefined) return bad;
    const trimmed = text.endsWith("\r") ? text.slice(0, -1) : text;
    return trimmed.trim() === "" ? undefined : { line: current, text: current === 1 ? trimmed.replace(/^\uFEFF/, "") : trimmed };
  };
  /** The lines that `chunk` completes; what follows the last line break stays in `pending`. */
  const take = (chunk: Buffer): JsonLine[] => {
    const firstBreak = chunk.indexOf(NEWLINE);
    const bad = firstBreak === -1 ? undefined : badLines(chunk, firstBreak, pendingBytes, line);
    if (firstBreak !== -1) pendingBytes = [];
    const text = decoder.write(chunk);
    const lines: JsonLine[] = [];
    let start = 0;
    for (let end = text.indexOf("\n"), order = 0; end !== -1; end = text.indexOf("\n", start), order++) {
      const piece = skipping ? "" : pending + text.slice(start, end);
      pending = "";
      if (piece.length > maxLine) skipping = true;
      const done = finish(piece, bad?.get(order));
      if (done !== undefined) lines.push(done);
      start = end + 1;
    }
    if (!skipping) {
      pending += text.slice(start);
      if (pending.length > maxLine) {
        pending = "";
        skipping = true;
      }
    }
    if (skipping) pendingBytes = [];
    else pendingBytes.push(Buffer.from(chunk.subarray(chunk.lastIndexOf(NEWLINE) + 1)));
    options.onBuffered?.(pending.length);
    return lines;
  };
  const handle = await openLog(resolve(cwd, path));
  // Two buffers, reused (the decoder copies what it decodes into strings): the next read runs in
  // the thread pool while the lines of the last one are split and judged.
  const buffers: readonly Buffer[] = [Buffer.allocUnsafe(READ_BYTES), Buffer.allocUnsafe(READ_BYTES)];
  const readInto = (turn: number) => handle.read(buffers[turn] as Buffer, 0, READ_BYTES, null);
  let reading = readInto(0);
  try {
    for (let turn = 1; ; turn ^= 1) {
      const { bytesRead, buffer } = await reading;
      if (bytesRead === 0) break;
      reading = readInto(turn);
      for (let at = 0; at < bytesRead; at += CHUNK) {
        const lines = take(buffer.subarray(at, Math.min(at + CHUNK, bytesRead)));
        if (lines.length > 0) yield lines;
      }
    }
  } finally {
    // A read still under way when the caller stops early ends before the file is closed.
    await reading.catch(() => undefined);
    await handle.close();
  }
  const rest = skipping ? "" : pending + decoder.end();
  if (skipping || rest !== "") {
    const bytes = Buffer.concat(pendingBytes);
    const done = finish(rest, isUtf8(bytes) ? undefined : notUtf8(line, bytes));
    if (done !== undefined) yield [done];
  }
}
