import { describe, expect, it } from "vitest";
import { looksLikeUtf16 } from "../../src/parser/looks-like-utf16.js";

/** `text` as UTF-16 code units read back as UTF-8 (ASCII only): a NUL after or before each character. */
function asUtf16(text: string, order: "le" | "be"): string {
  return [...text].map((c) => (order === "le" ? `${c}\0` : `\0${c}`)).join("");
}

describe("looksLikeUtf16", () => {
  const seam = "graph g {\n  agent a: worker\n}\n";

  it.each(["le", "be"] as const)("spots UTF-16 (%s) text read as UTF-8", (order) => {
    expect(looksLikeUtf16(asUtf16(seam, order))).toBe(true);
    expect(looksLikeUtf16(asUtf16(seam.repeat(100), order))).toBe(true);
    expect(looksLikeUtf16(asUtf16("g", order))).toBe(true);
  });

  it("spots it when some characters are not ASCII (no NUL in their high byte)", () => {
    const text = asUtf16("graph g {\n  // é à ü\n}\n", "le").replace(/é\0|à\0|ü\0/g, "\u00e9\u0001");
    expect(looksLikeUtf16(text)).toBe(true);
  });

  it("leaves UTF-8 text alone, also with a stray NUL or a run of NULs", () => {
    expect(looksLikeUtf16(seam)).toBe(false);
    expect(looksLikeUtf16("")).toBe(false);
    expect(looksLikeUtf16("\0")).toBe(false);
    expect(looksLikeUtf16(`graph g {\0}`)).toBe(false);
    expect(looksLikeUtf16("\0".repeat(64))).toBe(false);
    expect(looksLikeUtf16(`${seam}${"\0".repeat(8)}`)).toBe(false);
  });
});
