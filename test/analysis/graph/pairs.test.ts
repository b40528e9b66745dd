import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstOccurrences, markReversed } from "../../../src/analysis/graph/pairs.js";

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

  it("markReversed marks the queries with a partner running the other way, and leaves other entries alone", () => {
    // 0 -> 1 (query), 1 -> 0 (partner), 1 -> 2 (query, no partner back), 2 -> 1 (not a partner kind).
    const from = [0, 1, 1, 2];
    const to = [1, 0, 2, 1];
    const kind = [0, 1, 0, 2];
    const out = new Uint8Array([0, 0, 0, 7]);
    markReversed(3, from, to, (e) => kind[e] === 0, (e) => kind[e] === 1, out);
    expect(Array.from(out)).toEqual([1, 0, 0, 7]);
  });

  it("markReversed agrees with a search over all pairs", () => {
    fc.assert(
      fc.property(arbitraryEdges, ({ size, edges }) => {
        const from = edges.map((e) => e[1]);
        const to = edges.map((e) => e[2]);
        const out = new Uint8Array(edges.length);
        markReversed(size, from, to, (e) => edges[e]?.[0] === 0, (e) => edges[e]?.[0] === 1, out);
        const expected = edges.map(([k, a, b]) => (k === 0 && edges.some(([k2, c, d]) => k2 === 1 && c === b && d === a) ? 1 : 0));
        expect(Array.from(out)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});
