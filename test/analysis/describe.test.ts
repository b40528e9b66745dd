import { describe, expect, it } from "vitest";
import { formatWalk, MAX_WALK_AGENTS } from "../../src/analysis/describe.js";
import { boundName, boundLongNames, MAX_NAME_SHOWN } from "../../src/core/diagnostic.js";

describe("formatWalk", () => {
  it("shows a walk of up to MAX_WALK_AGENTS agents whole", () => {
    const walk = Array.from({ length: MAX_WALK_AGENTS }, (_, i) => `a${i}`);
    expect(formatWalk(walk)).toBe(walk.join(" -> "));
  });

  it("shortens a longer walk in the middle and counts what it left out", () => {
    const walk = Array.from({ length: 10_000 }, (_, i) => `a${i}`);
    expect(formatWalk(walk)).toBe(
      "a0 -> a1 -> a2 -> a3 -> a4 -> a5 -> ... (9,988 more) ... -> a9994 -> a9995 -> a9996 -> a9997 -> a9998 -> a9999",
    );
  });

  it("bounds each name of the walk", () => {
    expect(formatWalk(["a", "b".repeat(1000)])).toBe(`a -> ${"b".repeat(24)}…(952 more)…${"b".repeat(24)}`);
  });
});

describe("bounded long names", () => {
  it("keeps a name of MAX_NAME_SHOWN characters whole", () => {
    const name = "n".repeat(MAX_NAME_SHOWN);
    expect(boundName(name)).toBe(name);
    expect(boundLongNames(`agent '${name}' is unused`)).toBe(`agent '${name}' is unused`);
  });

  it("cuts a longer quoted name to its two ends, and leaves prose between quotes alone", () => {
    const long = "x".repeat(1_000_000);
    const message = `'${long}' neither returns to 'boss' nor has a terminal of its own, so 'boss' waits`;
    expect(boundLongNames(message)).toBe(
      `'${"x".repeat(24)}…(999952 more)…${"x".repeat(24)}' neither returns to 'boss' nor has a terminal of its own, so 'boss' waits`,
    );
  });
});
