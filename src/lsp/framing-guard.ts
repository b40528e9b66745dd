/**
 * A guard on the LSP base protocol's framing (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#baseProtocol):
 * each message is a header part (`Name: value` lines, each ended by `\r\n`, then an empty line)
 * with a `Content-Length` in bytes, then that many bytes of content. `vscode-jsonrpc`'s reader
 * buffers a header or a content of any length and waits for it without end, and takes a negative
 * length as one it waits for forever: a client that sends `Content-Length: 1000000000000`, or
 * 300 MB of content, or ends its output inside a message, leaves a server that holds gigabytes or
 * never exits. The guard sits between the input and that reader, passes every byte through
 * unchanged, and reports the first fault of the framing instead.
 */
import { Transform, type TransformCallback } from "node:stream";
import { MAX_SOURCE_BYTES } from "../core/source-limit.js";

/** The longest header part, in bytes (the protocol has two short fields). */
export const MAX_HEADER_BYTES = 8 * 1024;

/**
 * The longest content, in bytes: a `didOpen` of a document at `seam check`'s size limit whose
 * every character JSON escapes as `\uXXXX` (6 bytes each), and room for the rest of the message.
 * A longer document is refused by the check anyway (`file-too-large`).
 */
export const MAX_CONTENT_BYTES = 6 * MAX_SOURCE_BYTES + 64 * 1024;

const HEADER_END = Buffer.from("\r\n\r\n");

/**
 * Returns a pass-through stream that calls `onFault` once, with a one-line description, at the
 * first framing fault of what is written to it, and passes nothing after it: a header part
 * longer than {@link MAX_HEADER_BYTES}, one without a `Content-Length` that is a decimal number
 * of bytes or with two, a length over {@link MAX_CONTENT_BYTES}, or an end of input inside a
 * message.
 */
export function createFramingGuard(onFault: (problem: string) => void): Transform {
  let header: Buffer = Buffer.alloc(0);
  /** Bytes of content still to come; 0 while a header part is being read. */
  let remaining = 0;
  let faulted = false;
  const fault = (problem: string): void => {
    faulted = true;
    onFault(problem);
  };

  /** Walks `chunk` through the framing; returns false at a fault. */
  const walk = (chunk: Buffer): boolean => {
    let at = 0;
    while (at < chunk.length) {
      if (remaining > 0) {
        const taken = Math.min(remaining, chunk.length - at);
        remaining -= taken;
        at += taken;
        continue;
      }
      // The header part so far and this chunk's rest, bounded, searched for the empty line.
      const window = Buffer.concat([header, chunk.subarray(at, at + MAX_HEADER_BYTES + HEADER_END.length)]);
      const end = window.indexOf(HEADER_END);
      if (end === -1 || end > MAX_HEADER_BYTES) {
        if (end !== -1 || window.length > MAX_HEADER_BYTES) {
          fault(`a message header is longer than ${MAX_HEADER_BYTES} bytes`);
          return false;
        }
        header = window;
        return true;
      }
      const length = contentLength(window.subarray(0, end).toString("latin1"));
      if (typeof length === "string") {
        fault(length);
        return false;
      }
      at += end + HEADER_END.length - header.length;
      header = Buffer.alloc(0);
      remaining = length;
    }
    return true;
  };

  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
      if (faulted) return done();
      if (walk(chunk)) return done(null, chunk);
      done();
    },
    flush(done: TransformCallback): void {
      if (!faulted && (remaining > 0 || header.length > 0)) fault("the input ended inside a message");
      done();
    },
  });
}

/**
 * The `Content-Length` of a header part (its lines without the final empty one), or what is
 * wrong with it. A second `Content-Length` is a fault: the guard and the reader behind it would
 * each take a different one (`vscode-jsonrpc` keeps the last), and the reader would then wait
 * for a length the guard never checked.
 */
function contentLength(header: string): number | string {
  let length: number | undefined;
  for (const line of header.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon === -1 || line.slice(0, colon).trim().toLowerCase() !== "content-length") continue;
    if (length !== undefined) return "a message header has more than one Content-Length";
    const value = line.slice(colon + 1).trim();
    if (!/^\d{1,16}$/.test(value)) return "a message's Content-Length is not a number of bytes";
    length = Number(value);
    if (length > MAX_CONTENT_BYTES) return `a message's Content-Length of ${length} bytes is over the limit of ${MAX_CONTENT_BYTES}`;
  }
  return length ?? "a message header has no Content-Length";
}
