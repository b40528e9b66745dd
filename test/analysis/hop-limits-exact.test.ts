import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { generateGraph, toSeam } from "../../bench/gen-graph.mjs";
import { checkText } from "../../src/analysis/check.js";
import { computeHopBounds, type HopGraph } from "../../src/analysis/hop-limits.js";

/**
 * Longest walk by memoised search over (agent, rounds left on every bounded edge): the
 * definition of H, computed the slow way. `undefined` when no terminal is reachable.
 */
function bruteForce(g: HopGraph): number | undefined {
  const memo = new Map<string, number>();
  const left = Array.from(g.rounds as number[]);
  const longest = (v: number): number => {
    const key = `${v}:${left.join(",")}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let best = g.terminal[v] === 1 ? 0 : -Infinity;
    for (let e = 0; e < g.from.length; e++) {
      if (g.from[e] !== v || (left[e] as number) <= 0) continue;
      left[e] = (left[e] as number) - 1;
      best = Math.max(best, 1 + longest(g.to[e] as number));
      left[e] = (left[e] as number) + 1;
    }
    memo.set(key, best);
    return best;
  };
  let best = -Infinity;
  for (const e of g.entries) best = Math.max(best, longest(e));
  return best === -Infinity ? undefined : best;
}

// Graphs of up to 12 agents and 40 edges: up to 10 bounded edges (1 or 2 rounds) anywhere, the
// rest unbounded and running forward (lower to higher agent), so no cycle is unbounded and the
// brute force stays affordable (at most 12 * 3^10 states, far fewer reachable).
const graphs = fc.integer({ min: 2, max: 12 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    bounded: fc.array(fc.tuple(fc.nat(size - 1), fc.nat(size - 1), fc.integer({ min: 1, max: 2 })), { maxLength: 10 }),
    forward: fc.array(fc.tuple(fc.nat(size - 1), fc.nat(size - 1)), { maxLength: 30 }),
    entries: fc.uniqueArray(fc.nat(size - 1), { minLength: 1, maxLength: 3 }),
    terminal: fc.array(fc.boolean(), { minLength: size, maxLength: size }),
  }),
);

function toGraph(x: {
  size: number;
  bounded: [number, number, number][];
  forward: [number, number][];
  entries: number[];
  terminal: boolean[];
}): HopGraph {
  const edges: [number, number, number][] = [
    ...x.bounded,
    ...x.forward.filter(([a, b]) => a < b).map(([a, b]): [number, number, number] => [a, b, Infinity]),
  ];
  return {
    size: x.size,
    from: edges.map((e) => e[0]),
    to: edges.map((e) => e[1]),
    rounds: edges.map((e) => e[2]),
    entries: x.entries,
    terminal: Uint8Array.from(x.terminal, (t) => (t ? 1 : 0)),
  };
}

/** Every edge bounded: the potential bound alone says at most 30 handoffs, the walks take 22. */
function eightAgents(): HopGraph {
  const spec = "0>5:2 1>4:2 2>3:2 3>0:1 3>6:1 4>2:2 4>7:1 5>1:2 6>4:2 7>0:1 7>3:2 0>2:1 1>6:1 2>7:2 5>3:1 6>1:2 3>5:1 4>0:2 7>5:1 6>2:1";
  const edges = spec.split(" ").map((s) => s.split(/[>:]/).map(Number) as [number, number, number]);
  return {
    size: 8,
    from: edges.map((e) => e[0]),
    to: edges.map((e) => e[1]),
    rounds: edges.map((e) => e[2]),
    entries: [0],
    terminal: Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 1]),
  };
}

describe("exact H on graphs of up to 12 agents and 40 edges", () => {
  it("the flow search alone (no memoised states) equals brute force", () => {
    fc.assert(
      fc.property(graphs, (x) => {
        const g = toGraph(x);
        // No step limit: this test is about the answer; npm run bench measures the time.
        const bounds = computeHopBounds(g, { stateBudget: 0, stepBudget: Infinity });
        expect(bounds.unbounded).toBe(false);
        expect(bounds.exact).toBe(true);
        expect(bounds.longestWalk).toBe(bruteForce(g));
      }),
      { numRuns: 300 },
    );
  });

  it("a graph of 8 agents and 20 bounded edges that the potential bound overestimates", () => {
    const g = eightAgents();
    expect(bruteForce(g)).toBe(22);
    expect(computeHopBounds(g)).toEqual({ shortestWalk: 2, longestWalk: 22, exact: true, unbounded: false });
    expect(computeHopBounds(g, { stateBudget: 0, stepBudget: 0 })).toEqual({
      shortestWalk: 2,
      longestWalk: 30,
      exact: false,
      unbounded: false,
      approximation: { kind: "steps", budget: 0 },
    });
  });
});

describe("the search budget counts work, not time", () => {
  /** Clocks that would change a time-bound answer: one that crawls, one that races, one that jumps back. */
  const clocks: (() => number)[] = [
    (() => {
      let t = 0;
      return () => (t += 1e-6);
    })(),
    (() => {
      let t = 0;
      return () => (t += 3_600_000);
    })(),
    (() => {
      let t = 0;
      return () => (t = t === 0 ? 1e12 : 0);
    })(),
  ];

  /** Runs `work` once under each odd clock (performance.now and Date.now alike). */
  function underOddClocks<T>(work: () => T): T[] {
    return clocks.map((clock) => {
      const spies = [vi.spyOn(performance, "now").mockImplementation(clock), vi.spyOn(Date, "now").mockImplementation(clock)];
      try {
        return work();
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
    });
  }

  it("the step that finishes the flow search is the same one under any clock", () => {
    const g = eightAgents();
    const exactAt = (budget: number) => computeHopBounds(g, { stateBudget: 0, stepBudget: budget }).exact;
    // The fewest steps that give the exact answer, by bisection on the normal clock.
    let lo = 0;
    let hi = 1;
    while (!exactAt(hi)) hi *= 2;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (exactAt(mid)) hi = mid;
      else lo = mid;
    }
    const just = computeHopBounds(g, { stateBudget: 0, stepBudget: hi });
    const short = computeHopBounds(g, { stateBudget: 0, stepBudget: hi - 1 });
    expect(just).toEqual({ shortestWalk: 2, longestWalk: 22, exact: true, unbounded: false });
    expect(short).toEqual({ shortestWalk: 2, longestWalk: 30, exact: false, unbounded: false, approximation: { kind: "steps", budget: hi - 1 } });
    for (const answer of underOddClocks(() => computeHopBounds(g, { stateBudget: 0, stepBudget: hi }))) expect(answer).toEqual(just);
    for (const answer of underOddClocks(() => computeHopBounds(g, { stateBudget: 0, stepBudget: hi - 1 }))) expect(answer).toEqual(short);
  });

  it("random graphs get the same bounds under any clock, whatever the budgets", () => {
    const samples = fc.sample(fc.tuple(graphs, fc.nat(40), fc.nat(3000)), { numRuns: 100, seed: 18 });
    const run = () => samples.map(([x, states, steps]) => computeHopBounds(toGraph(x), { stateBudget: states, stepBudget: steps }));
    const expected = run();
    for (const answer of underOddClocks(run)) expect(answer).toEqual(expected);
  });

  it("seam check's JSON of the bench's 1,000-agent graph is the same under any clock", () => {
    const text = toSeam(generateGraph({ agents: 1000 }));
    const json = () => JSON.stringify(checkText("generated-1000.seam", text), (key, value) => (key === "decl" || key === "file" ? undefined : value));
    const expected = json();
    expect(expected).toContain('"rule":"hop-limit-approximate"');
    for (const answer of underOddClocks(json)) expect(answer).toBe(expected);
  });
});
