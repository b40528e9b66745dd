import { describe, expect, it } from "vitest";
import { FAULT_COLOR, UNREACHABLE_COLOR } from "../../src/emit/picture-model.js";
import { svgPicture } from "../../src/emit/picture-svg.js";
import { exampleNames, examplesDir, loadGraph, picturesDir } from "./picture-helpers.js";

describe("svgPicture", () => {
  it("renders every example as an SVG document", async () => {
    for (const name of exampleNames()) {
      const graph = loadGraph(`${examplesDir}${name}.seam`);
      const svg = await svgPicture(graph);
      expect(svg).toContain("<svg");
      expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
      expect(svg).toContain(`<title>${graph.name}</title>`);
      for (const agent of graph.agents) expect(svg).toContain(`>${agent.id}</text>`);
      expect(svg).not.toContain(FAULT_COLOR);
    }
  });

  it("draws the faults of a faulty graph in red and unreachable agents in grey", async () => {
    const svg = await svgPicture(loadGraph(`${picturesDir}faulty.seam`));
    // Graphviz writes each coloured shape as stroke="#d32f2f" (two trapped agents, two cycle edges with their arrow heads).
    expect((svg.match(new RegExp(`stroke="${FAULT_COLOR}"`, "g")) ?? []).length).toBeGreaterThanOrEqual(4);
    expect(svg).toContain(`fill="${FAULT_COLOR}"`); // red labels
    expect(svg).toContain(`stroke="${UNREACHABLE_COLOR}"`);
    expect(svg).toContain("no terminal path");
  });

  it("escapes names in the SVG text", async () => {
    const svg = await svgPicture(loadGraph(`${picturesDir}tricky-names.seam`));
    expect(svg).toContain("supervisor 2.0 &quot;beta&quot; #1 &lt;b&gt;&amp;");
  });
});
