import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeUtf8, firstInvalidUtf8 } from "../../src/core/utf8.js";

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);
const utf8 = (text: string): number[] => [...Buffer.from(text, "utf8")];

describe("decodeUtf8", () => {
  it("decodes UTF-8, a byte order mark kept", () => {
    expect(decodeUtf8(bytes(0xef, 0xbb, 0xbf, ...utf8("agent é 😀")))).toEqual({ ok: true, text: "\uFEFFagent é 😀" });
  });

  it("gives the line and column (UTF-16 code units) of the first bad byte, and its value", () => {
    expect(decodeUtf8(bytes(...utf8("graph g {\r\n  agent é😀"), 0xff, 0x41))).toEqual({
      ok: false,
      at: { line: 2, column: 12 },
      problem: "is not valid UTF-8 text from here on (byte 0xFF)",
    });
  });

  it.each([
    ["a lone continuation byte", [0x41, 0x80], 1],
    ["an overlong form", [0xc0, 0xaf], 0],
    ["an overlong three-byte form", [0xe0, 0x80, 0xaf], 0],
    ["a surrogate", [0xed, 0xa0, 0x80], 0],
    ["past U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 0],
    ["a sequence cut short at the end", [0x41, 0xe2, 0x82], 1],
    ["a sequence cut short by ASCII", [0xe2, 0x41, 0x41], 0],
  ])("finds %s", (_name, values, offset) => {
    expect(firstInvalidUtf8(bytes(...values))).toBe(offset);
  });

  it("agrees with TextDecoder on which bytes are UTF-8, and finds the longest valid start", () => {
    const strict = new TextDecoder("utf-8", { fatal: true });
    const valid = (b: Uint8Array): boolean => {
      try {
        strict.decode(b);
        return true;
      } catch {
        return false;
      }
    };
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 12 }), fc.string({ unit: "binary", maxLength: 6 }), (noise, text) => {
        const b = Uint8Array.from([...utf8(text), ...noise]);
        const at = firstInvalidUtf8(b);
        expect(at === b.length).toBe(valid(b));
        expect(valid(b.subarray(0, at))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
