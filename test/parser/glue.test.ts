import { describe, expect, it } from "vitest";
import { gluesIntoName } from "../../src/parser/glue.js";
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
