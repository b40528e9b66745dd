import { describe, expect, it } from "vitest";
import { gluesIntoName, sameGlue } from "../../src/parser/glue.js";
import { scan } from "../../src/parser/scanner.js";

/** The kinds of the first two tokens of `text`. */
const firstTwo = (text: string): [number, number] => {
  const { kinds, count } = scan(text);
  expect(count).toBeGreaterThanOrEqual(2);
  return [kinds[0] as number, kinds[1] as number];
};

describe("gluesIntoName", () => {
  it.each([
    ["digits before a name", "9x"],
    ["digits before a keyword", "1agent"],
  ])("is true for %s", (_, text) => {
    expect(gluesIntoName(...firstTwo(text))).toBe(true);
  });

  it.each([
    ["a name before a colon", "x:"],
    ["digits before a colon", "9:"],
    ["a name before a dot", "a.b"],
    ["a name before an arrow", "a->b"],
    ["a keyword before a name", "agent x"],
    ["a version before a name", "1.2x"],
  ])("is false for %s", (_, text) => {
    expect(gluesIntoName(...firstTwo(text))).toBe(false);
  });
});

describe("sameGlue", () => {
  it("is true when digits and a name touch in both scans", () => {
    expect(sameGlue(scan("agent 9x"), scan("agent 9y"), 0, 3)).toBe(true);
  });

  it("is false when a space parts digits from the name after them", () => {
    expect(sameGlue(scan("agent 9x:"), scan("agent 9 x"), 1, 3)).toBe(false);
  });

  it("is false when an edit joins digits to the name after them", () => {
    expect(sameGlue(scan("agent 9 x"), scan("agent 9x:"), 1, 3)).toBe(false);
  });

  it("pairs the token before the range with the first one in it", () => {
    expect(sameGlue(scan("9 x y"), scan("9x  y"), 1, 2)).toBe(false);
  });

  it("ignores pairs that cannot glue, touching or not", () => {
    expect(sameGlue(scan("a -> b"), scan("a->b"), 0, 3)).toBe(true);
  });
});
