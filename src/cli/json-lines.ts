/**
 * Reads a JSON Lines file (https://jsonlines.org: UTF-8, one JSON value per line, `\n` or `\r\n`
 * between lines) as a stream, one line at a time, in bounded memory: the file is read in chunks,
 * and a line longer than the cap is skipped (reported as too long) instead of being held, so no
 * input, however large, makes the reader hold more than the cap plus one read.
 *
 * Readline (`node:readline`) would hold a line of any length in full, which is why lines are
 * split here.
 */
import { open } from "node:fs/promises";
import { resolve } from "node:path";
import { StringDecoder } from "node:string_decoder";

/** Longest line kept, in UTF-16 code units: an envelope is at most 10 MB, as with `.json` files. */
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

/** One line of the file: its 1-based number and text (no line break), or why it was skipped. */
export type JsonLine =
  | { readonly line: number; readonly text: string }
  | { readonly line: number; readonly tooLong: true };

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
 * @throws the `node:fs` error when the file cannot be opened or read (callers turn it into a one-line problem)
 */
export async function* readJsonLines(path: string, cwd: string, options: JsonLinesOptions = {}): AsyncGenerator<JsonLine[]> {
  const maxLine = options.maxLine ?? MAX_LINE;
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let skipping = false;
  let line = 1;
  const finish = (text: string): JsonLine | undefined => {
    const current = line++;
    if (skipping) {
      skipping = false;
      return { line: current, tooLong: true };
    }
    const trimmed = text.endsWith("\r") ? text.slice(0, -1) : text;
    return trimmed.trim() === "" ? undefined : { line: current, text: current === 1 ? trimmed.replace(/^\uFEFF/, "") : trimmed };
  };
  /** The lines that `chunk` completes; what follows the last line break stays in `pending`. */
  const take = (chunk: Buffer): JsonLine[] => {
    const text = decoder.write(chunk);
    const lines: JsonLine[] = [];
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      const piece = skipping ? "" : pending + text.slice(start, end);
      pending = "";
      if (piece.length > maxLine) skipping = true;
      const done = finish(piece);
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
    options.onBuffered?.(pending.length);
    return lines;
  };
  const handle = await open(resolve(cwd, path), "r");
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
    const done = finish(rest);
    if (done !== undefined) yield [done];
  }
}
