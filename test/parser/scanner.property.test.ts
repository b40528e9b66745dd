import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chevrotain } from "../../src/parser/spec/chevrotain.js";
import { lex } from "./lex.js";
import { allTokens, ERROR_GROUP } from "../../src/parser/spec/tokens.js";

// The reference: a Chevrotain Lexer built from the token patterns of tokens.ts (what Seam used
// before its own scanner). The scanner must read every text the same way.
// Chevrotain cannot index the Unicode classes of the name pattern by first character, so this
// reference lexer runs unoptimised (it only serves this test).
const reference = new chevrotain.Lexer([...allTokens], { positionTracking: "full", ensureOptimizations: false, skipValidations: true });

function viaReference(text: string) {
  const input = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const result = reference.tokenize(input);
  return {
    tokens: result.tokens.map((t) => [t.tokenType.name, t.image, t.startOffset, t.endOffset]),
    errors: result.errors.map((e) => [e.offset, e.length]),
    comments: (result.groups[ERROR_GROUP] ?? []).map((t) => [t.startOffset, t.image]),
  };
}

function viaScanner(text: string) {
  const result = lex(text);
  return {
    tokens: result.tokens.map((t) => [t.tokenType.name, t.image, t.startOffset, t.endOffset]),
    errors: result.errors.map((e) => [e.offset, e.length]),
    comments: (result.groups[ERROR_GROUP] ?? []).map((t) => [t.startOffset, t.image]),
  };
}

const numRuns = Number(process.env["SEAM_FUZZ_RUNS"] ?? 1000);

/** Pieces that sit at token boundaries: partial keywords, escapes, comment marks, odd characters. */
const alphabet = fc.constantFrom(
  "agent", "agents", "seam", "-", ">", "->", "a", "_", "9", "1.", ".3", "12", "[", "]", "[]", "{", "}",
  ",", ":", ".", '"', "\\", "\\u00e9", "\\u12", "\\q", "\\n", "/", "//", "/*", "*/", "*", " ", "\t", "\n",
  "\r", "\r\n", "\f", "\v", "\uFEFF", "\u00a0", "é", "#", "\u0000", "\uD83D\uDE00", "on_hop_limit", "max_rounds",
  "名前", "Größe", "a\u200Db", "\u0301", "\uD835\uDC00", "𝑥1", "٣", "e", "E", "+", "e-", "1e3", ".5",
  // Invisible characters (Default_Ignorable_Code_Point), which no name holds: a variation
  // selector, U+034F, a supplementary variation selector, the Hangul fillers, soft hyphen.
  "\uFE00", "\u034F", "\uDB40\uDD00", "\u3164", "\uFFA0", "\u115F", "\u00AD", "\u200B", "\u180B",
);

describe("scanner", () => {
  it("reads random text exactly as a Chevrotain Lexer built from the token patterns", () => {
    const text = fc.oneof(
      fc.array(alphabet, { maxLength: 60 }).map((a) => a.join("")),
      fc.string({ unit: "binary", maxLength: 80 }),
    );
    fc.assert(fc.property(text, (t) => {
        expect(viaScanner(t)).toEqual(viaReference(t));
      }), { numRuns });
  });

  it("agrees on the corner cases written out", () => {
    for (const text of ["", "\uFEFF", "\uFEFFa", "a-", "a->", "a-->b", '"\\', '"a\\"', '"\\u00"x"', "1.2.3", "/*/", "#/*", "## a #", "-1", "a -1", "--1", "-1-1", "a-1", "1.2.3.", "1.2.3.4", "1..2.3", "-0.1", "-1.2.3", "1e-3", "1E+3", "1.5e-3", "-1e3", "1e", "1e-", "1e-x", "1ex", "1.5e", ".5", "-.5", "-.x", ".5.6e2", "a.5", "x-1e3", "1e3e3", "bill\uFE00", "x\u034Fy", "lead\uDB40\uDD00", "\u3164", "a-\uFE00", "\uFE00a", "caf\u00e9-\u56f3"]) {
      expect(viaScanner(text)).toEqual(viaReference(text));
    }
  });
});
