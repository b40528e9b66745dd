import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeHopBounds, type HopGraph } from "../../src/analysis/hop-limits.js";

/** Options that leave only the potential bound: no states to memoise, no steps to search. */
const NO_SEARCH = { stateBudget: 0, stepBudget: 0 } as const;
const STEPS_SPENT = { kind: "steps", budget: 0 } as const;

/** Builds a hop graph from `a>b` / `a>b:2` edge strings over single-letter agents. */
function graph(spec: string, entries: string, terminals: string): HopGraph {
  const names = [...new Set(spec.replace(/[^a-z]/g, "") + entries + terminals)].sort();
  const id = (n: string) => names.indexOf(n);
  const from: number[] = [];
  const to: number[] = [];
  const rounds: number[] = [];
  for (const edge of spec.split(/\s+/).filter(Boolean)) {
    const m = /^([a-z])>([a-z])(?::(\d+))?$/.exec(edge);
    if (!m) throw new Error(edge);
    from.push(id(m[1] as string));
    to.push(id(m[2] as string));
    rounds.push(m[3] === undefined ? Infinity : Number(m[3]));
  }
  return {
    size: names.length,
    from,
    to,
    rounds,
    entries: [...entries].map(id),
    terminal: Uint8Array.from(names, (n) => (terminals.includes(n) ? 1 : 0)),
  };
}

/** Every walk from an entry, respecting rounds, enumerated; the longest ending at a terminal. */
function bruteForce(g: HopGraph): number | undefined {
  let best: number | undefined;
  const left = Array.from(g.rounds as number[]);
  const walk = (v: number, length: number): void => {
    if (g.terminal[v] === 1) best = Math.max(best ?? 0, length);
    for (let e = 0; e < g.from.length; e++) {
      if (g.from[e] !== v || (left[e] as number) <= 0) continue;
      left[e] = (left[e] as number) - 1;
      walk(g.to[e] as number, length + 1);
      left[e] = (left[e] as number) + 1;
    }
  };
  for (const e of g.entries) walk(e, 0);
  return best;
}

describe("hop bounds by hand", () => {
  const table: { name: string; g: HopGraph; shortest?: number; longest?: number; unbounded?: boolean }[] = [
    // The two cases of /work/shared/cases that fix the semantics.
    { name: "ceo-swarm-bounded", g: graph("c>e:1 e>c c>m:1 m>c", "c", "c"), shortest: 0, longest: 4 },
    { name: "ping-pong-bounded", g: graph("p>c c>p:2", "p", "pc"), shortest: 0, longest: 5 },
    { name: "a chain", g: graph("a>b b>c c>d", "a", "d"), shortest: 3, longest: 3 },
    { name: "two branches", g: graph("a>b b>d a>c c>e e>d", "a", "d"), shortest: 2, longest: 3 },
    { name: "a walk may pass a terminal and go on", g: graph("a>b b>c", "a", "b"), shortest: 1, longest: 1 },
    { name: "terminal beyond a bounded loop", g: graph("a>b b>a:3 b>c", "a", "c"), shortest: 2, longest: 8 },
    { name: "two bounded edges on one loop", g: graph("a>b:2 b>a:1", "a", "a"), shortest: 0, longest: 2 },
    { name: "bounded self-loop", g: graph("a>a:3 a>b", "a", "b"), shortest: 1, longest: 4 },
    { name: "an unbounded loop", g: graph("a>b b>a a>c", "a", "c"), shortest: 1, unbounded: true },
    { name: "an unbounded loop that cannot finish is ignored", g: graph("a>b b>c c>b a>d", "a", "d"), shortest: 1, longest: 1 },
    { name: "an unbounded loop nobody reaches is ignored", g: graph("a>d b>c c>b c>d", "a", "d"), shortest: 1, longest: 1 },
    { name: "max_rounds 0 removes the edge", g: graph("a>b:0 a>c c>b", "a", "b"), shortest: 2, longest: 2 },
    { name: "no terminal reachable", g: graph("a>b", "a", "c") },
    { name: "several entries", g: graph("a>c b>d d>c", "ab", "c"), shortest: 1, longest: 2 },
  ];
  for (const { name, g, shortest, longest, unbounded } of table) {
    it(name, () => {
      const bounds = computeHopBounds(g);
      expect(bounds.shortestWalk).toBe(shortest);
      expect(bounds.longestWalk).toBe(longest);
      expect(bounds.unbounded).toBe(unbounded ?? false);
      expect(bounds.exact).toBe(true);
    });
  }

  it("falls back to a sound upper bound when the search budgets are spent, and says which", () => {
    const bounds = computeHopBounds(graph("a>b b>a:3 b>c", "a", "c"), NO_SEARCH);
    expect(bounds.exact).toBe(false);
    expect(bounds.approximation).toEqual(STEPS_SPENT);
    // Height into a is 0, into b 1: b -> a climbs 1 + 1 - 0 = 2 per round, 6 in all; from a the
    // walk leaves at b (height 1) by b -> c, so at most 6 + (1 + 1) - 0 = 8 (the exact H here).
    expect(bounds.longestWalk).toBe(8);
  });

  it("charges a bounded back edge only the height it climbs, not the longest unbounded path", () => {
    // A chain of 10 with two one-round back edges at its ends. The old bound, B + (B + 1) * Lu,
    // gave 2 + 3 * 9 = 29; the walk 0 1 0 1 ... 9 8 9 has 13 handoffs.
    const g = graph("a>b b>c c>d d>e e>f f>g g>h h>i i>j b>a:1 j>i:1", "a", "j");
    expect(bruteForce(g)).toBe(13);
    expect(computeHopBounds(g, NO_SEARCH)).toEqual({ shortestWalk: 9, longestWalk: 13, exact: false, unbounded: false, approximation: STEPS_SPENT });
  });

  it("spends the search budget on the smallest components first", () => {
    // a <-> b (4 x 2 round states, 16 with its two agents) feeds the sink x -> y -> z -> x
    // (3 x 4^3 = 192 states). A budget of 20 covers only the small one, wherever it lies; the
    // potential bound of the sink is tight (9), and that of a <-> b would not be (4, not 3).
    const g = graph("a>b:3 b>a:1 b>x x>y:3 y>z:3 z>x:3", "a", "x");
    expect(bruteForce(g)).toBe(13);
    expect(computeHopBounds(g, { stateBudget: 20, stepBudget: 0 })).toEqual({ shortestWalk: 2, longestWalk: 13, exact: false, unbounded: false, approximation: STEPS_SPENT });
    expect(computeHopBounds(g, NO_SEARCH).longestWalk).toBe(14);
    expect(computeHopBounds(g)).toEqual({ shortestWalk: 2, longestWalk: 13, exact: true, unbounded: false });
  });

  it("handles a 100,000-agent chain and a 100,000-agent bounded ring", () => {
    const n = 100_000;
    const from = Array.from({ length: n - 1 }, (_, i) => i);
    const to = Array.from({ length: n - 1 }, (_, i) => i + 1);
    const terminal = new Uint8Array(n);
    terminal[n - 1] = 1;
    const chain = computeHopBounds({ size: n, from, to, rounds: from.map(() => Infinity), entries: [0], terminal });
    expect(chain).toEqual({ shortestWalk: n - 1, longestWalk: n - 1, exact: true, unbounded: false });
    const ring = computeHopBounds({
      size: n,
      from: [...from, n - 1],
      to: [...to, 0],
      rounds: [...from.map(() => Infinity), 1],
      entries: [0],
      terminal,
    });
    expect(ring.longestWalk).toBe(2 * n - 1);
    expect(ring.exact).toBe(true);
  });
});

describe("hop bounds against brute force", () => {
  // Small graphs with every edge bounded (1 or 2 rounds), so every walk is finite.
  const arbitrary = fc.integer({ min: 1, max: 5 }).chain((size) =>
    fc.record({
      size: fc.constant(size),
      edges: fc.array(fc.tuple(fc.nat(size - 1), fc.nat(size - 1), fc.integer({ min: 1, max: 2 })), { maxLength: 6 }),
      entries: fc.uniqueArray(fc.nat(size - 1), { minLength: 1, maxLength: 2 }),
      terminal: fc.array(fc.boolean(), { minLength: size, maxLength: size }),
    }),
  );
  const toGraph = (x: { size: number; edges: [number, number, number][]; entries: number[]; terminal: boolean[] }): HopGraph => ({
    size: x.size,
    from: x.edges.map((e) => e[0]),
    to: x.edges.map((e) => e[1]),
    rounds: x.edges.map((e) => e[2]),
    entries: x.entries,
    terminal: Uint8Array.from(x.terminal, (t) => (t ? 1 : 0)),
  });

  it("exact H equals the longest enumerated walk", () => {
    fc.assert(
      fc.property(arbitrary, (x) => {
        const g = toGraph(x);
        const bounds = computeHopBounds(g);
        expect(bounds.exact).toBe(true);
        expect(bounds.unbounded).toBe(false);
        expect(bounds.longestWalk).toBe(bruteForce(g));
      }),
      { numRuns: 400 },
    );
  });

  // Mixed graphs: unbounded edges only run forward (from a lower to a higher agent), so they hold
  // no cycle and every walk is finite, while bounded edges run anywhere.
  const mixed = fc.integer({ min: 1, max: 6 }).chain((size) =>
    fc.record({
      size: fc.constant(size),
      edges: fc.array(
        fc.tuple(fc.nat(size - 1), fc.nat(size - 1), fc.oneof(fc.integer({ min: 1, max: 2 }), fc.constant(Infinity))),
        { maxLength: 7 },
      ),
      entries: fc.uniqueArray(fc.nat(size - 1), { minLength: 1, maxLength: 2 }),
      terminal: fc.array(fc.boolean(), { minLength: size, maxLength: size }),
    }).map((x) => ({ ...x, edges: x.edges.map(([a, b, r]): [number, number, number] => (r === Infinity && a >= b ? [a, b, 1] : [a, b, r])) })),
  );

  it("with unbounded edges too: exact H equals brute force, and every budget gives at least H", () => {
    fc.assert(
      fc.property(mixed, fc.integer({ min: 0, max: 40 }), (x, budget) => {
        const g = toGraph(x);
        const expected = bruteForce(g);
        const exact = computeHopBounds(g);
        expect(exact.exact).toBe(true);
        expect(exact.longestWalk).toBe(expected);
        const bounded = computeHopBounds(g, { stateBudget: budget, stepBudget: 0 });
        if (expected === undefined) expect(bounded.longestWalk).toBeUndefined();
        else expect(bounded.longestWalk as number).toBeGreaterThanOrEqual(expected);
        if (bounded.exact) expect(bounded.longestWalk).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("the upper-bound mode is never below the exact H", () => {
    fc.assert(
      fc.property(arbitrary, (x) => {
        const g = toGraph(x);
        const exact = computeHopBounds(g).longestWalk;
        const bound = computeHopBounds(g, NO_SEARCH).longestWalk;
        if (exact === undefined) expect(bound).toBeUndefined();
        else expect(bound as number).toBeGreaterThanOrEqual(exact);
      }),
      { numRuns: 400 },
    );
  });
});
