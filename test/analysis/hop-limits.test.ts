import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeHopBounds, type HopGraph } from "../../src/analysis/hop-limits.js";

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

  it("falls back to a sound upper bound when the state budget is spent", () => {
    const bounds = computeHopBounds(graph("a>b b>a:3 b>c", "a", "c"), { stateBudget: 0 });
    expect(bounds.exact).toBe(false);
    // B = 3 bounded rounds, Lu = 1 (a -> b), so at most 3 + 4 * 1 = 7 inside, plus the exit b -> c.
    expect(bounds.longestWalk).toBe(8);
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

  it("the upper-bound mode is never below the exact H", () => {
    fc.assert(
      fc.property(arbitrary, (x) => {
        const g = toGraph(x);
        const exact = computeHopBounds(g).longestWalk;
        const bound = computeHopBounds(g, { stateBudget: 0 }).longestWalk;
        if (exact === undefined) expect(bound).toBeUndefined();
        else expect(bound as number).toBeGreaterThanOrEqual(exact);
      }),
      { numRuns: 400 },
    );
  });
});
