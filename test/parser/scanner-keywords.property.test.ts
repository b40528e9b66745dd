import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { K_IDENTIFIER, keywordKind, keywordWords, scan } from "../../src/parser/scanner.js";

// The scanner tells a keyword from a name by comparing code units with the keywords that start
// like the word; a word is a keyword exactly when it is one of the vocabulary's words. Words near
// the keywords (one shorter, longer, one code unit changed) are where such a comparison slips.
const numRuns = Number(process.env["SEAM_FUZZ_RUNS"] ?? 1000);

/** The kind the vocabulary gives `word`: its keyword kind, or a name. */
const expectedKind = (word: string): number => (keywordWords.includes(word) ? keywordKind(word) : K_IDENTIFIER);

/** `word` changed near the end or the start: the spellings a keyword check must not confuse. */
function neighbours(word: string): string[] {
  const last = word.length - 1;
  return [
    word,
    word.slice(0, -1),
    `${word}s`,
    `${word}_`,
    `${word.slice(0, last)}${word[last] === "x" ? "y" : "x"}`,
    `${word[0] === "x" ? "y" : "x"}${word.slice(1)}`,
    `${word[0]}${word}`,
    word.toUpperCase(),
  ].filter((w) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(w));
}

describe("scanner keywords", () => {
  it("reads each keyword, and each word near one, as the vocabulary says", () => {
    for (const word of keywordWords) {
      for (const variant of neighbours(word)) {
        const scanned = scan(variant);
        expect(scanned.count, variant).toBe(1);
        expect(scanned.kinds[0], variant).toBe(expectedKind(variant));
      }
    }
  });

  it("reads runs of keyword pieces as the vocabulary says, word by word", () => {
    const piece = fc.oneof(fc.constantFrom(...keywordWords), fc.constantFrom(...keywordWords).map((w) => w.slice(0, -1)), fc.constantFrom("a", "_", "s", "9"));
    const word = fc.array(piece, { minLength: 1, maxLength: 3 }).map((parts) => parts.join("")).filter((w) => !/^[0-9]/.test(w));
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), (words) => {
        const scanned = scan(words.join(" "));
        expect(scanned.count).toBe(words.length);
        expect(Array.from(scanned.kinds.subarray(0, scanned.count))).toEqual(words.map(expectedKind));
      }),
      { numRuns },
    );
  });
});
