import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstOccurrences, markPaired } from "../../../src/analysis/graph/pairs.js";

/** Edges over `size` nodes with a kind 0..2 each. */
const arbitraryEdges = fc.integer({ min: 1, max: 12 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    edges: fc.array(fc.tuple(fc.nat(2), fc.nat(size - 1), fc.nat(size - 1)), { maxLength: 40 }),
  }),
);

describe("pair lookups", () => {
  it("firstOccurrences names the earliest item with the same (kind, from, to)", () => {
    expect(Array.from(firstOccurrences(3, 2, [0, 1, 0, 0, 0], [0, 0, 0, 1, 0], [1, 1, 1, 0, 2]))).toEqual([0, 1, 0, 3, 4]);
  });

  it("firstOccurrences agrees with a string-keyed map", () => {
    fc.assert(
      fc.property(arbitraryEdges, ({ size, edges }) => {
        const seen = new Map<string, number>();
        const expected = edges.map(([k, a, b], i) => {
          const key = `${k} ${a} ${b}`;
          if (!seen.has(key)) seen.set(key, i);
          return seen.get(key);
        });
        const first = firstOccurrences(size, 3, edges.map((e) => e[0]), edges.map((e) => e[1]), edges.map((e) => e[2]));
        expect(Array.from(first)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it("markPaired marks the edges of either kind with one of the other kind running the other way", () => {
    // 0 -> 1 (a), 1 -> 0 (b), 1 -> 2 (a, nothing back), 2 -> 1 (neither kind), 2 -> 2 (a and b, a self-loop each).
    const from = [0, 1, 1, 2, 2, 2];
    const to = [1, 0, 2, 1, 2, 2];
    const kind = [0, 1, 0, 2, 0, 1];
    expect(Array.from(markPaired(3, kind, 0, 1, from, to))).toEqual([1, 1, 0, 0, 1, 1]);
  });

  it("markPaired agrees with a search over all pairs", () => {
    fc.assert(
      fc.property(arbitraryEdges, ({ size, edges }) => {
        const from = edges.map((e) => e[1]);
        const to = edges.map((e) => e[2]);
        const kinds = edges.map((e) => e[0]);
        const partner = (k: number): number => (k === 0 ? 1 : k === 1 ? 0 : -1);
        const expected = edges.map(([k, a, b]) => (edges.some(([k2, c, d]) => k2 === partner(k) && c === b && d === a) ? 1 : 0));
        expect(Array.from(markPaired(size, kinds, 0, 1, from, to))).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
