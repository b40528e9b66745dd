/**
 * readJsonLines hands over the lines of each chunk at once; flattened, they must be exactly the
 * lines of the file as a plain split reads them: numbered from 1, `\r\n` and `\n` alike, blank
 * lines skipped, a byte order mark dropped from line 1, a line past the cap reported as too long.
 * Files of generated lines, long enough that chunks (64 KiB) end at arbitrary places.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { readJsonLines, type JsonLine } from "../../src/cli/json-lines.js";

const dir = mkdtempSync(join(tmpdir(), "seam-json-lines-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The lines of `text` as a plain split reads them. */
function reference(text: string, maxLine: number): JsonLine[] {
  const pieces = text.split("\n");
  if (pieces[pieces.length - 1] === "") pieces.pop();
  const lines: JsonLine[] = [];
  pieces.forEach((piece, i) => {
    if (piece.length > maxLine) return void lines.push({ line: i + 1, tooLong: true });
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
        expect(got).toEqual(reference(text, maxLine));
      }),
      { numRuns: 40, seed: 20261202 },
    );
    expect(crossed).toBeGreaterThan(20);
  }, 120_000);
});
