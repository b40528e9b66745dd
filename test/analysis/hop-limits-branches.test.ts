import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { computeHopBounds, type HopGraph } from "../../src/analysis/hop-limits.js";
import { lines } from "./rules/rule-table.js";

/**
 * H with fan-outs, the slow way (docs/language.md, Hop limits with branches): the longest walk
 * from an entry to a terminal where taking a branch of a fan-out spends a round of every branch
 * of that fan-out (they are taken together), by memoised search over (agent, rounds left on
 * every edge).
 */
function bruteForce(g: HopGraph & { groups: ArrayLike<number> }): number | undefined {
  const memo = new Map<string, number>();
  const left = Array.from(g.rounds as number[]);
  const members = (e: number): number[] => {
    const group = g.groups[e] as number;
    if (group < 0) return [e];
    const out: number[] = [];
    for (let f = 0; f < g.from.length; f++) if (g.groups[f] === group) out.push(f);
    return out;
  };
  const longest = (v: number): number => {
    const key = `${v}:${left.join(",")}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let best = g.terminal[v] === 1 ? 0 : -Infinity;
    for (let e = 0; e < g.from.length; e++) {
      if (g.from[e] !== v) continue;
      const spent = members(e);
      if (spent.some((f) => (left[f] as number) <= 0)) continue;
      for (const f of spent) left[f] = (left[f] as number) - 1;
      best = Math.max(best, 1 + longest(g.to[e] as number));
      for (const f of spent) left[f] = (left[f] as number) + 1;
    }
    memo.set(key, best);
    return best;
  };
  let best = -Infinity;
  for (const e of g.entries) best = Math.max(best, longest(e));
  return best === -Infinity ? undefined : best;
}

// Graphs of up to 8 agents: bounded edges anywhere (1 or 2 rounds), unbounded ones forward, and
// one fan-out: two or more bounded edges of one agent grouped as its branches.
const graphs = fc.integer({ min: 2, max: 8 }).chain((size) =>
  fc.record({
    size: fc.constant(size),
    hub: fc.nat(size - 1),
    branches: fc.array(fc.tuple(fc.nat(size - 1), fc.integer({ min: 1, max: 2 })), { minLength: 2, maxLength: 3 }),
    bounded: fc.array(fc.tuple(fc.nat(size - 1), fc.nat(size - 1), fc.integer({ min: 1, max: 2 })), { maxLength: 7 }),
    forward: fc.array(fc.tuple(fc.nat(size - 1), fc.nat(size - 1)), { maxLength: 16 }),
    entries: fc.uniqueArray(fc.nat(size - 1), { minLength: 1, maxLength: 2 }),
    terminal: fc.array(fc.boolean(), { minLength: size, maxLength: size }),
  }),
);

function toGraph(x: {
  size: number;
  hub: number;
  branches: [number, number][];
  bounded: [number, number, number][];
  forward: [number, number][];
  entries: number[];
  terminal: boolean[];
}): HopGraph & { groups: number[] } {
  const edges: [number, number, number, number][] = [
    ...x.branches.map(([to, r]): [number, number, number, number] => [x.hub, to, r, 0]),
    ...x.bounded.map(([a, b, r]): [number, number, number, number] => [a, b, r, -1]),
    ...x.forward.filter(([a, b]) => a < b).map(([a, b]): [number, number, number, number] => [a, b, Infinity, -1]),
  ];
  return {
    size: x.size,
    from: edges.map((e) => e[0]),
    to: edges.map((e) => e[1]),
    rounds: edges.map((e) => e[2]),
    groups: edges.map((e) => e[3]),
    entries: x.entries,
    terminal: Uint8Array.from(x.terminal, (t) => (t ? 1 : 0)),
  };
}

describe("H with fan-outs", () => {
  it("is never below the brute force (sound), and equals it wherever it says it is exact", () => {
    let exact = 0;
    fc.assert(
      fc.property(graphs, (x) => {
        const g = toGraph(x);
        const bounds = computeHopBounds(g, { stepBudget: Infinity });
        const brute = bruteForce(g);
        if (brute === undefined) return;
        expect(bounds.longestWalk).toBeGreaterThanOrEqual(brute);
        if (bounds.exact) {
          exact++;
          expect(bounds.longestWalk).toBe(brute);
        } else {
          expect(bounds.approximation?.kind).toBe("fan-out");
        }
      }),
      { numRuns: 300 },
    );
    expect(exact).toBeGreaterThan(0);
  });

  it("counts the longest branch once, not every branch one after another", () => {
    // lead -> b -> b2 -> b -> lead is the longest branch (4 handoffs); taking lead -> a first
    // would add 2 more, but a fan-out takes both branches together.
    const result = checkText(
      "branches.seam",
      lines(
        "graph g {",
        "  envelope 1.4",
        "  entry lead",
        "  agent lead: supervisor {",
        "    join all of a, b",
        "    terminal done",
        "  }",
        "  agent a: worker",
        "  agent b: supervisor",
        "  agent b2: worker",
        "  delegate lead -> a {",
        "    fan_out research",
        "    max_rounds 1",
        "  }",
        "  delegate lead -> b {",
        "    fan_out research",
        "    max_rounds 1",
        "  }",
        "  return a -> lead",
        "  return b -> lead",
        "  delegate b -> b2 { max_rounds 1 }",
        "  return b2 -> b",
        "}",
      ),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.graphs[0]?.hopLimit).toEqual({ value: 5, longestWalk: 4, exact: true, shortestWalk: 0 });
  });

  it("without fan_out the same delegations are separate choices, taken one after another", () => {
    const g: HopGraph & { groups: number[] } = {
      size: 3,
      from: [0, 0, 1, 2],
      to: [1, 2, 0, 0],
      rounds: [1, 1, Infinity, Infinity],
      groups: [-1, -1, -1, -1],
      entries: [0],
      terminal: Uint8Array.from([1, 0, 0]),
    };
    expect(computeHopBounds(g).longestWalk).toBe(4);
    expect(computeHopBounds({ ...g, groups: [0, 0, -1, -1] }).longestWalk).toBe(2);
    expect(bruteForce({ ...g, groups: [0, 0, -1, -1] })).toBe(2);
  });
});

describe("a fan-out beyond the memoised search", () => {
  it("is a sound bound, and hop-limit-approximate names the fan-out", () => {
    const text = lines(
      "graph g {",
      "  envelope 1.4",
      "  entry lead",
      "  hop_limit auto",
      "  agent lead: supervisor {",
      "    join all of a, b",
      "    terminal done",
      "  }",
      "  agent a: worker",
      "  agent b: worker",
      "  delegate lead -> a {",
      "    fan_out research",
      "    max_rounds 2",
      "  }",
      "  delegate lead -> b {",
      "    fan_out research",
      "    max_rounds 2",
      "  }",
      "  return a -> lead",
      "  return b -> lead",
      "}",
    );
    const exact = checkText("g.seam", text);
    expect(exact.graphs[0]?.hopLimit).toEqual({ value: 5, longestWalk: 4, exact: true, shortestWalk: 0 });
    const bounded = checkText("g.seam", text, { hopSearch: { stateBudget: 0 } });
    expect(bounded.graphs[0]?.hopLimit.exact).toBe(false);
    const at = text.indexOf("auto");
    expect(bounded.diagnostics.map((d) => [d.rule, d.severity, d.range, d.message])).toEqual([
      [
        "hop-limit-approximate",
        "info",
        { start: at, end: at + 4 },
        `graph 'g': the longest walk allowed by max_rounds is at most ${bounded.graphs[0]?.hopLimit.longestWalk} handoffs (an upper bound: a strongly connected component of 3 agents and 4 edges holds branches of one fan-out, whose shared rounds only the memoised search follows, and has more round states than it may keep); hop_limit auto assigns ${(bounded.graphs[0]?.hopLimit.longestWalk ?? 0) + 1}, which is safe but may be more than needed. Declare hop_limit to choose the value yourself.`,
      ],
    ]);
    expect(bounded.graphs[0]?.hopLimit.longestWalk).toBeGreaterThanOrEqual(4);
  });
});
