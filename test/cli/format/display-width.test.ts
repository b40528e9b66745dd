import { describe, expect, it } from "vitest";
import { codePointWidth } from "../../../src/cli/format/display-width.js";

describe("codePointWidth", () => {
  const cases: [what: string, char: string, width: number][] = [
    ["ASCII letter", "a", 1],
    ["Latin-1 letter", "\u00e9", 1],
    ["Greek letter", "\u03bb", 1],
    ["combining acute accent", "\u0301", 0],
    ["zero width joiner", "\u200d", 0],
    ["variation selector 16", "\ufe0f", 0],
    ["CJK ideograph", "\u65e5", 2],
    ["Hiragana", "\u3042", 2],
    ["Hangul syllable", "\ud55c", 2],
    ["fullwidth Latin A", "\uff21", 2],
    ["halfwidth Katakana", "\uff76", 1],
    ["ideographic full stop", "\u3002", 2],
    ["emoji grinning face", "\u{1f600}", 2],
    ["emoji rocket", "\u{1f680}", 2],
    ["emoji in the BMP (watch)", "\u231a", 2],
    ["CJK extension B", "\u{20000}", 2],
    ["check mark (text presentation)", "\u2713", 1],
    ["ellipsis", "\u2026", 1],
  ];
  it.each(cases)("%s", (_what, char, width) => {
    expect(codePointWidth(char.codePointAt(0) as number)).toBe(width);
  });
});
