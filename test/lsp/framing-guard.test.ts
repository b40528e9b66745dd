import { describe, expect, it } from "vitest";
import { createFramingGuard, MAX_CONTENT_BYTES, MAX_HEADER_BYTES } from "../../src/lsp/framing-guard.js";

/** Writes `chunks` through a guard and ends it; returns what it passed and the faults it reported. */
async function guarded(chunks: readonly Buffer[]): Promise<{ passed: Buffer; faults: string[] }> {
  const faults: string[] = [];
  const guard = createFramingGuard((problem) => faults.push(problem));
  const passed: Buffer[] = [];
  guard.on("data", (chunk: Buffer) => passed.push(chunk));
  const ended = new Promise((resolve) => guard.on("end", resolve));
  for (const chunk of chunks) guard.write(chunk);
  guard.end();
  await ended;
  return { passed: Buffer.concat(passed), faults };
}

const frame = (content: string, header = `Content-Length: ${Buffer.byteLength(content)}`): string => `${header}\r\n\r\n${content}`;

describe("the LSP framing guard", () => {
  it("passes well-framed messages through unchanged, however the input is cut into chunks", async () => {
    const text = frame('{"jsonrpc":"2.0","method":"initialized","params":{}}') +
      frame('{"jsonrpc":"2.0","id":1,"method":"x","params":"é"}', `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: ${Buffer.byteLength('{"jsonrpc":"2.0","id":1,"method":"x","params":"é"}')}`) +
      frame("");
    const bytes = Buffer.from(text);
    for (let cut = 0; cut <= bytes.length; cut++) {
      const { passed, faults } = await guarded([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(faults).toEqual([]);
      expect(passed.equals(bytes)).toBe(true);
    }
    const oneByteEach = await guarded([...bytes].map((b) => Buffer.from([b])));
    expect(oneByteEach.faults).toEqual([]);
    expect(oneByteEach.passed.equals(bytes)).toBe(true);
  });

  it("takes a length at the limit", async () => {
    const { faults } = await guarded([Buffer.from(`Content-Length: ${MAX_CONTENT_BYTES}\r\n\r\n`), Buffer.alloc(MAX_CONTENT_BYTES, 0x20)]);
    expect(faults).toEqual([]);
  });

  const faulty: [what: string, input: string, fault: string][] = [
    ["a negative length", "Content-Length: -5\r\n\r\nhello", "a message's Content-Length is not a number of bytes"],
    ["a length that is no number", "Content-Length: abc\r\n\r\n", "a message's Content-Length is not a number of bytes"],
    ["a length over the limit", `Content-Length: ${MAX_CONTENT_BYTES + 1}\r\n\r\n{}`, `a message's Content-Length of ${MAX_CONTENT_BYTES + 1} bytes is over the limit of ${MAX_CONTENT_BYTES}`],
    ["a huge length", "Content-Length: 1000000000000\r\n\r\n{}", `a message's Content-Length of 1000000000000 bytes is over the limit of ${MAX_CONTENT_BYTES}`],
    ["no length", 'Content-Type: application/json\r\n\r\n{"a":1}', "a message header has no Content-Length"],
    ["two lengths (the reader behind would take the second)", "Content-Length: 2\r\nContent-Length: 62000000\r\n\r\n{}", "a message header has more than one Content-Length"],
    ["two lengths that agree", "Content-Length: 2\r\ncontent-length: 2\r\n\r\n{}", "a message header has more than one Content-Length"],
    ["a message with no header", '{"jsonrpc":"2.0"}\r\n\r\n', "a message header has no Content-Length"],
    ["a header that never ends", `X-Foo: ${"a".repeat(MAX_HEADER_BYTES)}`, `a message header is longer than ${MAX_HEADER_BYTES} bytes`],
    ["a header that ends past the limit", `X-Foo: ${"a".repeat(MAX_HEADER_BYTES)}\r\nContent-Length: 2\r\n\r\n{}`, `a message header is longer than ${MAX_HEADER_BYTES} bytes`],
  ];

  it.each(faulty)("reports %s once and passes nothing after it", async (_what, input, fault) => {
    const good = frame("{}");
    const { passed, faults } = await guarded([Buffer.from(good), Buffer.from(input), Buffer.from(good)]);
    expect(faults).toEqual([fault]);
    // The chunk that holds the fault, and all after it, are held back.
    expect(passed.toString()).toBe(good);
  });

  it.each([
    ["inside the content", 'Content-Length: 100\r\n\r\n{"a"'],
    ["inside the header", "Content-Len"],
  ])("reports an end of input %s", async (_where, input) => {
    const good = frame("{}");
    const { passed, faults } = await guarded([Buffer.from(good), Buffer.from(input)]);
    expect(faults).toEqual(["the input ended inside a message"]);
    expect(passed.toString()).toBe(good + input);
  });
});
