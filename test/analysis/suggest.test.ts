import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { boundedEditDistance, suggestName } from "../../src/analysis/suggest.js";

function levenshtein(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min((row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1), (row[j] as number) + 1, (next[j - 1] as number) + 1);
    }
    row = next;
  }
  return row[b.length] as number;
}

describe("suggestions", () => {
  it("bounded distance equals Levenshtein up to the limit", () => {
    const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "_"), maxLength: 12 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 5 }), (a, b, limit) => {
        expect(boundedEditDistance(a, b, limit)).toBe(Math.min(levenshtein(a, b), limit + 1));
      }),
      { numRuns: 1000 },
    );
  });

  it("suggests the nearest name, prefers a case-only difference, and gives up when nothing is close", () => {
    expect(suggestName("researcher_tool", ["researcher", "researcher_tools"])).toBe("researcher_tools");
    expect(suggestName("Intake", ["intake", "intakes"])).toBe("intake");
    expect(suggestName("billing", ["triage", "planner"])).toBeUndefined();
  });

  it("stops comparing when the shared budget is spent", () => {
    const shared = { remaining: 1 };
    expect(suggestName("abcd", ["xxxx", "abce"], { shared })).toBeUndefined();
    expect(shared.remaining).toBeLessThan(1);
  });
});
