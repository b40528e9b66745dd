/**
 * Streams a text file line by line in bounded memory, for logs far larger than memory: one
 * chunk and one line at most are held at a time. Lines end at `\n` (a `\r` before it is
 * dropped); each is decoded as strict UTF-8 on its own, so a bad byte is blamed on its line.
 * The file is opened by `openLog`, which refuses a device (it would never end) as the other
 * commands do.
 */
import { openLog } from "./open-log.js";

/** The longest line read, in bytes (1 MiB); a longer one is reported, not held. */
export const MAX_LINE_BYTES = 1024 * 1024;

/** What {@link readLines} calls for each line. */
export interface LineVisitor {
  /** A decoded line (without its line break), numbered from 1. */
  line(number: number, text: string): void;
  /** A line that could not be read: over {@link MAX_LINE_BYTES}, or not UTF-8. */
  bad(number: number, problem: string): void;
}

const NEWLINE = 0x0a;

/**
 * Reads `path` and calls `visitor` for every line, in order. A byte order mark at the start is
 * skipped; a last line without `\n` counts; an empty file has no lines.
 *
 * @param path - an absolute path, or one relative to the process's working folder
 * @param maxLineBytes - the longest line kept (default {@link MAX_LINE_BYTES})
 * @throws what `openLog` throws (the `node:fs` error, or `UnreadableLog` for a device), or the
 *   `node:fs` error of a failed read (EISDIR...); `describeLogError` words either
 */
export async function readLines(path: string, visitor: LineVisitor, maxLineBytes = MAX_LINE_BYTES): Promise<void> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let tooLong = false;
  let number = 0;

  function finishLine(last: Buffer): void {
    number++;
    if (tooLong) {
      visitor.bad(number, `the line is longer than ${maxLineBytes} bytes`);
    } else {
      let bytes = pending.length === 0 ? last : Buffer.concat([...pending, last]);
      if (bytes.length > 0 && bytes[bytes.length - 1] === 0x0d) bytes = bytes.subarray(0, bytes.length - 1);
      if (number === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
      let text: string | undefined;
      try {
        text = decoder.decode(bytes);
      } catch {
        visitor.bad(number, "the line is not valid UTF-8");
      }
      if (text !== undefined) visitor.line(number, text);
    }
    pending = [];
    pendingBytes = 0;
    tooLong = false;
  }

  function keep(part: Buffer): void {
    if (tooLong) return;
    pendingBytes += part.length;
    if (pendingBytes > maxLineBytes) {
      tooLong = true;
      pending = [];
    } else if (part.length > 0) {
      // Copied: the stream may reuse the chunk's memory.
      pending.push(Buffer.from(part));
    }
  }

  // The stream closes the handle when it ends, fails or is left early.
  const handle = await openLog(path);
  for await (const chunk of handle.createReadStream({ highWaterMark: 256 * 1024 })) {
    const buffer = chunk as Buffer;
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE, start); end !== -1; end = buffer.indexOf(NEWLINE, start)) {
      const part = buffer.subarray(start, end);
      if (pendingBytes + part.length > maxLineBytes) {
        tooLong = true;
        finishLine(Buffer.alloc(0));
      } else {
        finishLine(part);
      }
      start = end + 1;
    }
    keep(buffer.subarray(start));
  }
  if (pendingBytes > 0 || tooLong) finishLine(Buffer.alloc(0));
}
