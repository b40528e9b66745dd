import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import {
  createRandom,
  generateGraph,
  TEAM_SIZE,
  toEdgeList,
  toSeam,
  type GeneratedGraph,
} from "../../bench/gen-graph.mjs";

/** True when the edges kept by `keep` form no cycle (Kahn's algorithm). */
function isAcyclic(graph: GeneratedGraph, keep: (edge: GeneratedGraph["edges"][number]) => boolean): boolean {
  const n = graph.agents.length;
  const indegree = new Array<number>(n).fill(0);
  const out: number[][] = Array.from({ length: n }, () => []);
  for (const edge of graph.edges) {
    if (!keep(edge)) continue;
    out[edge.from]!.push(edge.to);
    indegree[edge.to]!++;
  }
  const queue = indegree.flatMap((d, i) => (d === 0 ? [i] : []));
  let seen = 0;
  while (queue.length) {
    const v = queue.pop()!;
    seen++;
    for (const w of out[v]!) if (--indegree[w]! === 0) queue.push(w);
  }
  return seen === n;
}

describe("createRandom", () => {
  it("is deterministic for a seed and stays in [0, 1)", () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const values = Array.from({ length: 1000 }, () => a());
    expect(values).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(990);
  });
});

describe("generateGraph", () => {
  const graph = generateGraph({ agents: 1000 });

  it("gives the same graph for the same seed and another for another seed", () => {
    expect(toSeam(generateGraph({ agents: 1000 }))).toBe(toSeam(graph));
    expect(toSeam(generateGraph({ agents: 1000, seed: 7 }))).not.toBe(toSeam(graph));
  });

  it("has a backbone chain, about four edges per agent, and no self or duplicate edge", () => {
    expect(graph.agents).toHaveLength(1000);
    const pairs = new Set(graph.edges.map((e) => `${e.from} ${e.to}`));
    for (let i = 0; i + 1 < 1000; i++) expect(pairs.has(`${i} ${i + 1}`)).toBe(true);
    expect(graph.edges.length / 1000).toBeGreaterThan(3.5);
    expect(graph.edges.length / 1000).toBeLessThan(5.5);
    expect(graph.edges.some((e) => e.from === e.to)).toBe(false);
    const keys = graph.edges.map((e) => `${e.kind} ${e.from} ${e.to}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("uses each edge kind only between the roles docs/language.md allows", () => {
    const role = (i: number) => graph.agents[i]!.role;
    const pairsOf = (kind: string) => new Set(graph.edges.filter((e) => e.kind === kind).map((e) => `${e.from} ${e.to}`));
    const delegated = pairsOf("delegate");
    const returned = pairsOf("return");
    for (const edge of graph.edges) {
      if (edge.kind === "delegate") {
        expect(role(edge.from)).toBe("supervisor");
        expect(role(edge.to)).not.toBe("peer");
        // missing-return: the target returns to the supervisor or ends the task itself.
        const returns = returned.has(`${edge.to} ${edge.from}`);
        expect(returns || graph.agents[edge.to]!.terminal !== undefined).toBe(true);
      } else if (edge.kind === "return") {
        expect(role(edge.to)).toBe("supervisor");
        expect(delegated.has(`${edge.to} ${edge.from}`)).toBe(true);
      } else {
        expect(role(edge.from)).not.toBe("supervisor");
        expect(role(edge.to)).not.toBe("supervisor");
      }
    }
  });

  it("bounds every cycle and keeps back edges inside a team", () => {
    expect(isAcyclic(graph, () => true)).toBe(false);
    expect(isAcyclic(graph, (e) => e.maxRounds === undefined)).toBe(true);
    // Between teams only forward edges: the team index never decreases along an edge.
    const team = (i: number) => (i < TEAM_SIZE + 4 ? 0 : Math.floor((i - 4) / TEAM_SIZE));
    for (const edge of graph.edges) expect(team(edge.to)).toBeGreaterThanOrEqual(team(edge.from));
  });

  it("puts a terminal on the last agent and on about a tenth of the others", () => {
    expect(graph.agents[999]!.terminal).toBeDefined();
    const terminals = graph.agents.filter((a) => a.terminal).length;
    expect(terminals).toBeGreaterThan(60);
    expect(terminals).toBeLessThan(150);
  });

  it("rejects a graph too small to have a chain", () => {
    expect(() => generateGraph({ agents: 1 })).toThrow(RangeError);
  });
});

describe("toSeam", () => {
  it("writes a graph that seam check accepts without errors or warnings", () => {
    const graph = generateGraph({ agents: 600 });
    const result = checkText("generated.seam", toSeam(graph));
    // Clean apart from the note that the hop limit of so large a graph is an upper bound.
    expect(result.diagnostics.map((d) => d.rule).filter((rule) => rule !== "hop-limit-approximate")).toEqual([]);
    expect(result.graphs).toHaveLength(1);
    const model = result.graphs[0]!;
    expect(model.agents).toHaveLength(600);
    expect(model.edges).toHaveLength(graph.edges.length);
    expect(model.agents.every((a) => a.reachable && a.canTerminate)).toBe(true);
    expect(model.hopLimit.value).toBeGreaterThan(600);
  });
});

describe("toEdgeList", () => {
  it("writes `n m`, the entries, then one pair per edge", () => {
    const graph = generateGraph({ agents: 40 });
    const lines = toEdgeList(graph).trimEnd().split("\n");
    expect(lines[0]).toBe(`40 ${graph.edges.length}`);
    expect(lines[1]).toBe(graph.entries.join(" "));
    expect(lines.slice(2)).toEqual(graph.edges.map((e) => `${e.from} ${e.to}`));
  });
});
