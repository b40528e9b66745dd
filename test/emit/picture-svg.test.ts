import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import type { CheckedGraph } from "../../src/analysis/model.js";
import { FAULT_COLOR, UNREACHABLE_COLOR } from "../../src/emit/picture-model.js";
import { SVG_MAX_EDGES, SVG_MAX_NODES, SVG_TIME_BUDGET_MS, svgPicture } from "../../src/emit/picture-svg.js";
import { exampleNames, examplesDir, loadGraph, picturesDir } from "./picture-helpers.js";

/** The SVG text, failing the test when the picture was refused. */
async function svgOf(graph: CheckedGraph): Promise<string> {
  const result = await svgPicture(graph);
  if (!result.ok) throw new Error(`not drawn: ${result.reason}`);
  return result.svg;
}

/** A chain a0 -> a1 -> ... of `n` agents, the last one terminal. */
function chain(n: number): CheckedGraph {
  const lines = ["graph chain {", "  entry a0"];
  for (let i = 0; i < n; i++) lines.push(`  agent a${i}: worker${i === n - 1 ? " { terminal done }" : ""}`);
  for (let i = 0; i + 1 < n; i++) lines.push(`  transfer a${i} -> a${i + 1}`);
  lines.push("}");
  return checkText("chain.seam", lines.join("\n")).graphs[0] as CheckedGraph;
}

describe("svgPicture", () => {
  it("renders every example as an SVG document", async () => {
    for (const name of exampleNames()) {
      const graph = loadGraph(`${examplesDir}${name}.seam`);
      const svg = await svgOf(graph);
      expect(svg).toContain("<svg");
      expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
      expect(svg).toContain(`<title>${graph.name}</title>`);
      for (const agent of graph.agents) expect(svg).toContain(`>${agent.id}</text>`);
      expect(svg).not.toContain(FAULT_COLOR);
    }
  });

  it("draws the faults of a faulty graph in red and unreachable agents in grey", async () => {
    const svg = await svgOf(loadGraph(`${picturesDir}faulty.seam`));
    // Graphviz writes each coloured shape as stroke="#d32f2f" (two trapped agents, two cycle edges with their arrow heads).
    expect((svg.match(new RegExp(`stroke="${FAULT_COLOR}"`, "g")) ?? []).length).toBeGreaterThanOrEqual(4);
    expect(svg).toContain(`fill="${FAULT_COLOR}"`); // red labels
    expect(svg).toContain(`stroke="${UNREACHABLE_COLOR}"`);
    expect(svg).toContain("no terminal path");
  });

  it("escapes names in the SVG text", async () => {
    const svg = await svgOf(loadGraph(`${picturesDir}tricky-names.seam`));
    expect(svg).toContain("supervisor 2.0 &quot;beta&quot; #1 &lt;b&gt;&amp;");
  });

  it("refuses a graph over the node limit without running Graphviz, counting terminals as nodes", async () => {
    // SVG_MAX_NODES agents plus the last one's terminal: one node too many.
    expect(await svgPicture(chain(SVG_MAX_NODES))).toEqual({
      ok: false,
      reason: "too-many-nodes",
      nodes: SVG_MAX_NODES + 1,
      edges: SVG_MAX_NODES + 1,
      maxNodes: SVG_MAX_NODES,
      maxEdges: SVG_MAX_EDGES,
      timeBudgetMs: SVG_TIME_BUDGET_MS,
    });
    const terminals = Array.from({ length: SVG_MAX_NODES }, (_, i) => `terminal t${i}`).join(" ");
    const oneAgent = checkText("star.seam", `graph star { entry a agent a: peer { ${terminals} } }`).graphs[0] as CheckedGraph;
    expect(await svgPicture(oneAgent)).toMatchObject({ ok: false, reason: "too-many-nodes", nodes: SVG_MAX_NODES + 1 });
  });

  it("returns Graphviz's stack overflow on a 20,000-agent chain as a result, and draws again afterwards", async () => {
    expect(await svgPicture(chain(20_000), { maxNodes: Infinity, maxEdges: Infinity, timeBudgetMs: 120_000 })).toEqual({
      ok: false,
      reason: "layout-failed",
      nodes: 20_001,
      edges: 20_001,
      maxNodes: Infinity,
      maxEdges: Infinity,
      timeBudgetMs: 120_000,
    });
    expect(await svgOf(loadGraph(`${picturesDir}faulty.seam`))).toContain("</svg>");
  }, 60_000);

  it("refuses a graph over the edge limit without running Graphviz, counting entry and terminal arrows", async () => {
    // 200 agents, 3 edges each out of agent 0's neighbourhood: edges drive the layout's cost.
    const agents = Array.from({ length: 10 }, (_, i) => `agent a${i}: peer${i === 9 ? " { terminal t }" : ""}`).join(" ");
    const edges: string[] = [];
    for (let i = 0; i < 9; i++) for (let j = 0; j < 10; j++) if (i !== j) edges.push(`transfer a${i} -> a${j} { max_rounds 1 }`);
    const dense = checkText("dense.seam", `graph dense { entry a0 ${agents} ${edges.join(" ")} }`).graphs[0] as CheckedGraph;
    expect(await svgPicture(dense, { maxEdges: 82 })).toEqual({
      ok: false,
      reason: "too-many-edges",
      nodes: 11,
      edges: 83,
      maxNodes: SVG_MAX_NODES,
      maxEdges: 82,
      timeBudgetMs: SVG_TIME_BUDGET_MS,
    });
  });

  it("stops a layout at its time budget, then draws again", async () => {
    const result = await svgPicture(loadGraph(`${picturesDir}faulty.seam`), { timeBudgetMs: 1 });
    expect(result).toMatchObject({ ok: false, reason: "timeout", timeBudgetMs: 1 });
    expect(await svgOf(loadGraph(`${picturesDir}faulty.seam`))).toContain("</svg>");
  });
});
