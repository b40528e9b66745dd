import { describe, expect, it } from "vitest";
import { CONFUSABLES, CONFUSABLES_VERSION, SCRIPT_NAMES } from "../../../src/analysis/unicode/confusables-data.js";
import { hasNonAscii, mixedScripts, skeleton } from "../../../src/analysis/unicode/skeleton.js";

describe("UTS #39 skeletons from the generated confusables table", () => {
  it("is the table of confusables.txt 18.0.0, identifier characters only", () => {
    expect(CONFUSABLES_VERSION).toBe("18.0.0");
    const entries = CONFUSABLES.split(";");
    expect(entries.length).toBe(5075);
    expect(entries).toContain("435>65"); // CYRILLIC SMALL LETTER IE -> LATIN SMALL LETTER E
    expect(entries).toContain("6d>72 6e"); // m -> r n
    expect(SCRIPT_NAMES).toEqual(expect.arrayContaining(["Latin", "Cyrillic", "Greek", "Han", "Hiragana"]));
    expect(SCRIPT_NAMES).not.toContain("Common");
  });

  it("maps look-alikes to one skeleton, after NFD on both sides", () => {
    expect(skeleton("\u0440\u0430\u0443\u0440\u0430l")).toBe(skeleton("paypal"));
    expect(skeleton("\u0435ditor")).toBe(skeleton("editor"));
    expect(skeleton("caf\u00e9")).toBe(skeleton("cafe\u0301"));
    expect(skeleton("rn")).toBe(skeleton("m"));
    expect(skeleton("editor")).not.toBe(skeleton("editors"));
  });

  it("drops invisible characters (Default_Ignorable_Code_Point), as UTS #39 does", () => {
    expect(skeleton("bill\ufe00")).toBe(skeleton("bill"));
    expect(skeleton("x\u034fy")).toBe(skeleton("xy"));
    expect(skeleton("lead\u{E0100}")).toBe(skeleton("lead"));
    expect(skeleton("a\u200db")).toBe(skeleton("ab"));
    expect(skeleton("\u3164")).toBe("");
  });

  it("tells ASCII names apart from the others", () => {
    expect([hasNonAscii("research-agent_2"), hasNonAscii("Gr\u00f6\u00dfe"), hasNonAscii("\u540d")]).toEqual([false, true, true]);
  });
});

describe("UTS #39 mixed-script detection", () => {
  it("finds a name whose characters share no script, with the part in each", () => {
    expect(mixedScripts("\u0435ditor")).toEqual([
      { script: "Cyrillic", text: "\u0435" },
      { script: "Latin", text: "ditor" },
    ]);
  });

  it("takes Japanese (Han with kana, the prolonged sound mark) and Korean (Han with Hangul) as one script each", () => {
    expect(mixedScripts("\u30fc\u65e5\u672c\u3072\u3089\u304c\u306a\u30ab\u30bf\u30ab\u30ca")).toBeUndefined();
    expect(mixedScripts("\u97d3\u56fd\ud55c\uad6d")).toBeUndefined();
    expect(mixedScripts("\u0440\u0435\u0434\u0430\u043a\u0442\u043e\u0440_2-b\u0301".replace("b", "\u0431"))).toBeUndefined();
    expect(mixedScripts("editor_2")).toBeUndefined();
  });
});
