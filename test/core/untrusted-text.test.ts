import { describe, expect, it } from "vitest";
import { escapeUntrusted, joinUntrusted, QUOTE_LIMIT, quoteUntrusted, stringifyUntrusted } from "../../src/core/untrusted-text.js";

describe("escapeUntrusted", () => {
  it.each([
    ["ESC (ANSI sequences)", "\u001b[2J", "\\u001b[2J"],
    ["an OSC title with BEL", "\u001b]0;x\u0007", "\\u001b]0;x\\u0007"],
    ["NUL", "a\u0000b", "a\\u0000b"],
    ["newline, tab, carriage return", "a\nb\tc\rd", "a\\nb\\tc\\rd"],
    ["DEL and a C1 CSI", "\u007f\u009b", "\\u007f\\u009b"],
    ["bidirectional overrides and isolates", "\u202eabc\u2066\u2069\u200f", "\\u202eabc\\u2066\\u2069\\u200f"],
    ["zero-width and BOM", "a\u200bb\ufeff", "a\\u200bb\\ufeff"],
    ["line and paragraph separators", "\u2028\u2029", "\\u2028\\u2029"],
    ["unpaired surrogates", "\ud800x\udc00", "\\ud800x\\udc00"],
  ])("escapes %s", (_name, text, escaped) => {
    expect(escapeUntrusted(text)).toBe(escaped);
  });

  it.each([
    ["plain ASCII with quotes and backslashes", 'say "hi" \\ there'],
    ["accents, CJK and an emoji (a surrogate pair)", "café 日本 😀"],
    ["right-to-left text itself", "שלום مرحبا"],
  ])("keeps %s", (_name, text) => {
    expect(escapeUntrusted(text)).toBe(text);
  });

  it("is idempotent", () => {
    const once = escapeUntrusted("\u001b[31mred\u202e");
    expect(escapeUntrusted(once)).toBe(once);
  });

  it("cuts at a limit, between code points", () => {
    expect(escapeUntrusted("😀😀😀", 2)).toBe("😀😀… (1 more characters)");
    expect(escapeUntrusted("abc", 3)).toBe("abc");
  });

  it("cuts an escaped text before an escape it would split, never inside it", () => {
    const once = escapeUntrusted("ab\u0085cd\ne"); // 13 characters: a, b, the 6 of \u0085, c, d, the 2 of \n, e
    expect(escapeUntrusted(once, 4)).toBe("ab… (11 more characters)");
    expect(escapeUntrusted(once, 7)).toBe("ab… (11 more characters)");
    expect(escapeUntrusted(once, 8)).toBe("ab\\u0085… (5 more characters)");
    expect(escapeUntrusted(once, 11)).toBe("ab\\u0085cd… (3 more characters)");
    expect(escapeUntrusted(once, 12)).toBe("ab\\u0085cd\\n… (1 more characters)");
  });

  it("cuts a text cut before once, counting from the text first cut", () => {
    const once = escapeUntrusted("x".repeat(5000), 200);
    expect(once).toBe(`${"x".repeat(200)}… (4800 more characters)`);
    expect(escapeUntrusted(once, 48)).toBe(`${"x".repeat(48)}… (4952 more characters)`);
    expect(escapeUntrusted(once, 48)).toBe(escapeUntrusted("x".repeat(5000), 48));
  });

  it("leaves a text cut before alone when its shown part fits", () => {
    const once = escapeUntrusted("x".repeat(5000), 200);
    expect(escapeUntrusted(once, 200)).toBe(once);
    expect(escapeUntrusted(once, 220)).toBe(once);
  });
});

describe("joinUntrusted", () => {
  it("joins texts that were not cut as they are", () => {
    expect(joinUntrusted(["triage", " -> ", "billing"])).toBe("triage -> billing");
  });

  it("stops at the first cut part and counts every later part among what is left out", () => {
    const producer = escapeUntrusted("p".repeat(300), 200);
    const receiver = escapeUntrusted("r".repeat(250), 200);
    expect(joinUntrusted([producer, " -> ", receiver])).toBe(`${"p".repeat(200)}… (${100 + 4 + 250} more characters)`);
    expect(joinUntrusted(["triage", " -> ", receiver])).toBe(`triage -> ${"r".repeat(200)}… (50 more characters)`);
  });
});

describe("quoteUntrusted", () => {
  it("quotes with JSON escapes for quotes, backslashes and unsafe characters", () => {
    expect(quoteUntrusted('a"b\\c\u001b')).toBe('"a\\"b\\\\c\\u001b"');
  });

  it(`cuts after ${QUOTE_LIMIT} code points and says how much is left`, () => {
    expect(quoteUntrusted("x".repeat(QUOTE_LIMIT))).toBe(`"${"x".repeat(QUOTE_LIMIT)}"`);
    expect(quoteUntrusted("x".repeat(QUOTE_LIMIT + 5))).toBe(`"${"x".repeat(QUOTE_LIMIT)}…" (5 more characters)`);
    expect(quoteUntrusted("ab😀cd", 3)).toBe('"ab😀…" (2 more characters)');
  });

  it("names values that are not strings without printing them whole", () => {
    expect([quoteUntrusted(7), quoteUntrusted(null), quoteUntrusted(true), quoteUntrusted([1]), quoteUntrusted({ a: 1 })]).toEqual([
      "7",
      "null",
      "true",
      "an array",
      "an object",
    ]);
  });
});

describe("stringifyUntrusted", () => {
  it("escapes what JSON.stringify leaves raw, and parses back to the same value", () => {
    const value = { a: "\u009b\u202e\u2028x", b: ["\u001b"], "\u200b": 1 };
    const text = stringifyUntrusted(value, 2);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b\u202e\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
    expect(text.split("\n")).toHaveLength(JSON.stringify(value, null, 2).split("\n").length);
  });
});
