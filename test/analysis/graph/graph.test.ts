import { Graph, alg } from "@dagrejs/graphlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createCompactGraph, reverseGraph } from "../../../src/analysis/graph/compact-graph.js";
import { componentMembers, stronglyConnectedComponents } from "../../../src/analysis/graph/scc.js";
import {
  breadthFirst,
  cycleThrough,
  reachableFrom,
  shortestWalk,
  treePath,
} from "../../../src/analysis/graph/traversal.js";

const arbitraryGraph = fc
  .integer({ min: 1, max: 60 })
  .chain((size) =>
    fc.record({
      size: fc.constant(size),
      edges: fc.array(fc.tuple(fc.nat(size - 1), fc.nat(size - 1)), { maxLength: size * 3 }),
    }),
  );

function build(size: number, edges: readonly (readonly [number, number])[]) {
  const compact = createCompactGraph(
    size,
    edges.map((e) => e[0]),
    edges.map((e) => e[1]),
  );
  const oracle = new Graph();
  for (let v = 0; v < size; v++) oracle.setNode(String(v));
  for (const [a, b] of edges) oracle.setEdge(String(a), String(b));
  return { compact, oracle };
}

const asSets = (groups: readonly (readonly (string | number)[])[]) =>
  groups.map((g) => [...g].map(String).sort().join(",")).sort();

describe("compact graph", () => {
  it("keeps edge order and ids, and reverses", () => {
    const g = createCompactGraph(3, [0, 1, 0, 2], [1, 2, 2, 0]);
    expect(Array.from(g.offsets)).toEqual([0, 2, 3, 4]);
    expect(Array.from(g.targets)).toEqual([1, 2, 2, 0]);
    expect(Array.from(g.edgeIds)).toEqual([0, 2, 1, 3]);
    const r = reverseGraph(g);
    expect(Array.from(r.offsets)).toEqual([0, 1, 2, 4]);
    expect(Array.from(r.targets)).toEqual([2, 0, 0, 1]);
    expect(Array.from(r.edgeIds)).toEqual([3, 0, 2, 1]);
  });

  it("filters edges and rejects endpoints outside the graph", () => {
    const g = createCompactGraph(2, [0, 1], [1, 0], (e) => e === 1);
    expect(Array.from(g.targets)).toEqual([0]);
    expect(() => createCompactGraph(2, [0], [2])).toThrow(RangeError);
  });
});

describe("strongly connected components", () => {
  it("finds a two-cycle, a self-loop and trivial nodes, sinks first", () => {
    // 0 <-> 1 -> 2, 3 -> 3
    const g = createCompactGraph(4, [0, 1, 1, 3], [1, 0, 2, 3]);
    const c = stronglyConnectedComponents(g);
    expect(c.count).toBe(3);
    expect(c.component[0]).toBe(c.component[1]);
    expect(c.component[2] as number).toBeLessThan(c.component[0] as number);
    expect(c.cyclic[c.component[0] as number]).toBe(1);
    expect(c.cyclic[c.component[2] as number]).toBe(0);
    expect(c.cyclic[c.component[3] as number]).toBe(1);
    expect(componentMembers(c).map((m) => Array.from(m))).toContainEqual([0, 1]);
  });

  it("equals graphlib's tarjan on random graphs (as sets), and numbers components in reverse topological order", () => {
    fc.assert(
      fc.property(arbitraryGraph, ({ size, edges }) => {
        const { compact, oracle } = build(size, edges);
        const ours = stronglyConnectedComponents(compact);
        expect(asSets(componentMembers(ours).map((m) => Array.from(m)))).toEqual(asSets(alg.tarjan(oracle)));
        for (const [a, b] of edges) expect(ours.component[a] as number).toBeGreaterThanOrEqual(ours.component[b] as number);
      }),
      { numRuns: 300 },
    );
  });
});

describe("reachability", () => {
  it("equals graphlib's preorder from the same sources", () => {
    fc.assert(
      fc.property(arbitraryGraph, fc.nat(59), ({ size, edges }, s) => {
        const { compact, oracle } = build(size, edges);
        const source = s % size;
        const ours = reachableFrom(compact, [source]);
        const expected = new Set(alg.preorder(oracle, [String(source)]));
        for (let v = 0; v < size; v++) expect(ours[v] === 1).toBe(expected.has(String(v)));
      }),
      { numRuns: 300 },
    );
  });

  it("reverse reachability equals preorder over graphlib predecessors", () => {
    fc.assert(
      fc.property(arbitraryGraph, ({ size, edges }) => {
        const { compact } = build(size, edges);
        const flipped = build(
          size,
          edges.map(([a, b]) => [b, a] as const),
        ).oracle;
        const ours = reachableFrom(reverseGraph(compact), [0]);
        const expected = new Set(alg.preorder(flipped, ["0"]));
        for (let v = 0; v < size; v++) expect(ours[v] === 1).toBe(expected.has(String(v)));
      }),
      { numRuns: 200 },
    );
  });
});

describe("shortest walks and cycle witnesses", () => {
  it("finds the fewest edges to a target and its path", () => {
    // 0 -> 1 -> 2 -> 3, 0 -> 4 -> 3
    const g = createCompactGraph(5, [0, 1, 2, 0, 4], [1, 2, 3, 4, 3]);
    const target = Uint8Array.from([0, 0, 0, 1, 0]);
    const walk = shortestWalk(g, [0], target);
    expect(walk?.length).toBe(2);
    expect(treePath(breadthFirst(g, [0]), 3)).toEqual([0, 4, 3]);
    expect(shortestWalk(g, [3], target)?.length).toBe(0);
    expect(shortestWalk(g, [3], Uint8Array.from([1, 0, 0, 0, 0]))).toBeUndefined();
  });

  it("extracts a concrete cycle through a node inside its component", () => {
    // 0 -> 1 -> 2 -> 0, 1 -> 3
    const g = createCompactGraph(4, [0, 1, 2, 1], [1, 2, 0, 3]);
    const c = stronglyConnectedComponents(g);
    const slots = cycleThrough(g, 1, c.component);
    expect(slots.map((s) => g.edgeIds[s])).toEqual([1, 2, 0]);
    expect(cycleThrough(g, 3, c.component)).toEqual([]);
  });

  it("every witness is a closed walk of real edges on random graphs", () => {
    fc.assert(
      fc.property(arbitraryGraph, ({ size, edges }) => {
        const { compact } = build(size, edges);
        const c = stronglyConnectedComponents(compact);
        for (let v = 0; v < size; v++) {
          const slots = cycleThrough(compact, v, c.component);
          expect(slots.length > 0).toBe(c.cyclic[c.component[v] as number] === 1);
          let at = v;
          for (const s of slots) {
            const e = edges[compact.edgeIds[s] as number] as readonly [number, number];
            expect(e[0]).toBe(at);
            at = e[1];
          }
          expect(at).toBe(v);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe("large graphs do not overflow the stack", () => {
  it("handles a 100,000-agent chain", () => {
    const n = 100_000;
    const from = Int32Array.from({ length: n - 1 }, (_, i) => i);
    const to = Int32Array.from({ length: n - 1 }, (_, i) => i + 1);
    const g = createCompactGraph(n, from, to);
    expect(stronglyConnectedComponents(g).count).toBe(n);
    expect(reachableFrom(g, [0]).every((r) => r === 1)).toBe(true);
    expect(shortestWalk(g, [0], Uint8Array.from({ length: n }, (_, i) => (i === n - 1 ? 1 : 0)))?.length).toBe(n - 1);
    // Closing the chain into one ring: one component, and a witness of n edges.
    const ring = createCompactGraph(n, [...from, n - 1], [...to, 0]);
    const c = stronglyConnectedComponents(ring);
    expect(c.count).toBe(1);
    expect(cycleThrough(ring, 0, c.component)).toHaveLength(n);
  });

  it("handles 100,000 agents with about four edges each", () => {
    const n = 100_000;
    const from: number[] = [];
    const to: number[] = [];
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let v = 0; v < n; v++) {
      from.push(v);
      to.push((v + 1) % n);
      for (let k = 0; k < 3; k++) {
        from.push(v);
        to.push(random() % n);
      }
    }
    const g = createCompactGraph(n, from, to);
    const c = stronglyConnectedComponents(g);
    expect(c.count).toBe(1);
    expect(reachableFrom(reverseGraph(g), [0]).every((r) => r === 1)).toBe(true);
  });
});
