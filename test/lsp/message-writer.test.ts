import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { StreamMessageWriter, type Message } from "vscode-languageserver/node";
import { FramedMessageWriter } from "../../src/lsp/message-writer.js";

const MESSAGES: Message[] = [
  { jsonrpc: "2.0", id: 1, result: null } as Message,
  { jsonrpc: "2.0", method: "textDocument/publishDiagnostics", params: { uri: "file:///é.seam", diagnostics: [{ message: "agent 'wrk_😀' \"quoted\"\n" }] } } as Message,
  { jsonrpc: "2.0", method: "big", params: { text: "x".repeat(200_000) } } as Message,
];

/** A stream that keeps each chunk written to it, as written. */
function recorder(): { stream: Writable; chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, chunks };
}

describe("the framed message writer", () => {
  it("writes the bytes vscode-jsonrpc's writer writes, each message in one write, in order", async () => {
    const ours = recorder();
    const theirs = recorder();
    const framed = new FramedMessageWriter(ours.stream);
    const reference = new StreamMessageWriter(theirs.stream);
    // Not awaited one by one: the order of the calls is the order of the bytes.
    await Promise.all(MESSAGES.map((m) => framed.write(m)));
    for (const m of MESSAGES) await reference.write(m);
    expect(ours.chunks).toHaveLength(MESSAGES.length);
    expect(Buffer.concat(ours.chunks).equals(Buffer.concat(theirs.chunks))).toBe(true);
  });

  it("resolves a write only when the stream has taken it", async () => {
    // Nobody reads this stream yet, and its buffer holds less than one message.
    const stream = new PassThrough({ highWaterMark: 16 });
    const writer = new FramedMessageWriter(stream);
    const done: number[] = [];
    const writes = MESSAGES.slice(0, 2).map((m, i) => writer.write(m).then(() => void done.push(i)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(done).toEqual([]);
    const read: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => void read.push(chunk));
    await Promise.all(writes);
    expect(done).toEqual([0, 1]);
    expect(Buffer.concat(read).toString("utf8")).toMatch(/^Content-Length: \d+\r\n\r\n\{"jsonrpc":"2.0","id":1,"result":null\}Content-Length: /);
  });

  it("rejects a message JSON cannot write, fires its error event and writes nothing", async () => {
    const { stream, chunks } = recorder();
    const writer = new FramedMessageWriter(stream);
    const errors: [Error, Message | undefined, number | undefined][] = [];
    writer.onError((e) => void errors.push(e));
    const bad = { jsonrpc: "2.0", method: "x", params: { n: 1n } } as unknown as Message;
    await expect(writer.write(bad)).rejects.toThrow(TypeError);
    expect(errors.map(([error, message, count]) => [error instanceof TypeError, message, count])).toEqual([[true, bad, 1]]);
    expect(chunks).toEqual([]);
  });

  it("rejects a write the stream fails, and reports the stream's close", async () => {
    const stream = new Writable({ write: (_chunk, _encoding, done) => done(new Error("disk full")) });
    const writer = new FramedMessageWriter(stream);
    const errors: string[] = [];
    let closed = false;
    writer.onError(([error]) => void errors.push(error.message));
    writer.onClose(() => (closed = true));
    await expect(writer.write(MESSAGES[0] as Message)).rejects.toThrow("disk full");
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toContain("disk full");
    expect(closed).toBe(true);
  });

  it("ends the stream", async () => {
    const { stream } = recorder();
    const finished = new Promise((resolve) => stream.on("finish", resolve));
    new FramedMessageWriter(stream).end();
    await finished;
  });
});
