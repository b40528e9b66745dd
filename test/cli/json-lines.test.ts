/**
 * readJsonLines hands over the lines of each chunk at once; flattened, they must be exactly the
 * lines of the file as a plain split reads them: numbered from 1, `\r\n` and `\n` alike, blank
 * lines skipped, a byte order mark dropped from line 1, a line past the cap reported as too long.
 * Files of generated lines, long enough that chunks (64 KiB) end at arbitrary places.
 */
import { isUtf8 } from "node:buffer";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { readJsonLines, type JsonLine } from "../../src/cli/json-lines.js";
import { firstInvalidUtf8 } from "../../src/core/utf8.js";

const dir = mkdtempSync(join(tmpdir(), "seam-json-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The lines of `bytes` as a plain split reads them; a line with bytes that are not UTF-8 is
 * reported at the first of them (a line too long is reported as that first).
 */
function reference(bytes: Buffer, maxLine: number): JsonLine[] {
  const pieces: Buffer[] = [];
  for (let start = 0; start <= bytes.length; ) {
    const end = bytes.indexOf(0x0a, start);
    pieces.push(bytes.subarray(start, end === -1 ? bytes.length : end));
    if (end === -1) break;
    start = end + 1;
  }
  if (pieces[pieces.length - 1]?.length === 0) pieces.pop();
  const lines: JsonLine[] = [];
  pieces.forEach((raw, i) => {
    const piece = raw.toString("utf8");
    if (piece.length > maxLine) return void lines.push({ line: i + 1, tooLong: true });
    if (!isUtf8(raw)) {
      const good = new TextDecoder("utf-8", { ignoreBOM: true }).decode(raw.subarray(0, firstInvalidUtf8(raw)));
      return void lines.push({ line: i + 1, column: good.length + 1, notUtf8: `is not valid UTF-8 text from here on (byte 0x${(raw[firstInvalidUtf8(raw)] as number).toString(16).toUpperCase().padStart(2, "0")})` });
    }
    let kept = piece.endsWith("\r") ? piece.slice(0, -1) : piece;
    if (kept.trim() === "") return;
    if (i === 0) kept = kept.replace(/^\uFEFF/, "");
    lines.push({ line: i + 1, text: kept });
  });
  return lines;
}

const line = fc.oneof(
  fc.json().map((j) => j.replace(/\n/g, " ")),
  fc.constantFrom("", " ", "\t", "\r", '{"a":"\u00e9\u4e2d\ud83d\ude00"}'),
  fc.string({ unit: "grapheme", maxLength: 300 }).map((t) => t.replace(/\n/g, "")),
  fc.nat({ max: 9000 }).map((n) => "x".repeat(n)),
);

describe("JSON Lines reading, a chunk at a time", () => {
  it("gives the lines a plain split gives, across chunk boundaries", async () => {
    let crossed = 0;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 40 }), fc.boolean(), fc.boolean(), fc.boolean(), fc.integer({ min: 100, max: 8000 }), async (lines, crlf, bom, lastBreak, maxLine) => {
        // Repeated past a few chunks, so boundaries fall inside lines and inside characters.
        let body = lines.join(crlf ? "\r\n" : "\n");
        while (body.length < 200_000) body += (crlf ? "\r\n" : "\n") + lines.join(crlf ? "\r\n" : "\n");
        const text = `${bom ? "\uFEFF" : ""}${body}${lastBreak ? "\n" : ""}`;
        const file = `log-${run++}.jsonl`;
        writeFileSync(join(dir, file), text);
        const got: JsonLine[] = [];
        let batches = 0;
        for await (const batch of readJsonLines(file, dir, { maxLine })) {
          expect(batch.length).toBeGreaterThan(0);
          batches++;
          got.push(...batch);
        }
        if (batches > 1) crossed++;
        expect(got).toEqual(reference(Buffer.from(text), maxLine));
      }),
      { numRuns: 40, seed: 20261202 },
    );
    expect(crossed).toBeGreaterThan(20);
  }, 120_000);

  it("decodes bytes as Buffer.toString does, and reports each line with bytes that are no UTF-8, in ASCII chunks and others alike", async () => {
    // Long ASCII runs, so that many 64 KiB chunks are all ASCII, between characters beyond
    // ASCII and bytes that are no UTF-8, which fall anywhere in a chunk, at its end or across
    // two chunks.
    const ascii = fc.tuple(fc.nat({ max: 90_000 }), fc.nat({ max: 3000 })).map(([length, every]) => {
      const text = "a".repeat(length);
      return Buffer.from(every === 0 ? text : text.replace(new RegExp(`(.{${every}})`, "g"), "$1\n"));
    });
    const other = fc.constantFrom([0xff], [0x80], [0xc3], [0xe4, 0xb8], [0xc3, 0xa9], [0xe4, 0xb8, 0xad], [0xf0, 0x9f, 0x98, 0x80], [0xef, 0xbb, 0xbf]).map((bytes) => Buffer.from(bytes));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(ascii, other), { minLength: 1, maxLength: 12 }), async (parts) => {
        const bytes = Buffer.concat(parts);
        const file = `bytes-${run++}.jsonl`;
        writeFileSync(join(dir, file), bytes);
        const got: JsonLine[] = [];
        for await (const batch of readJsonLines(file, dir)) got.push(...batch);
        expect(got).toEqual(reference(bytes, Number.POSITIVE_INFINITY));
      }),
      { numRuns: 60, seed: 20261207 },
    );
  }, 120_000);

  it.each([[[0xc3]], [[0xe4, 0xb8]], [[0xf0, 0x9f, 0x98]], [[0xc3, 0xa9]], [[0xff]]])(
    "decodes %j at the end of a 64 KiB chunk before the all-ASCII chunk after it, or reports the line",
    async (tail) => {
      const chunk = 64 * 1024;
      const bytes = Buffer.concat([Buffer.from(`${"a".repeat(chunk - tail.length)}`), Buffer.from(tail), Buffer.from(`${"b".repeat(chunk)}\n{}\n`)]);
      writeFileSync(join(dir, "boundary.jsonl"), bytes);
      const got: JsonLine[] = [];
      for await (const batch of readJsonLines("boundary.jsonl", dir)) got.push(...batch);
      expect(got).toEqual(reference(bytes, Number.POSITIVE_INFINITY));
    },
  );
});
