/** Fan-outs and joins in the pictures: a fan-out as its own widening node, a join agent as a narrowing one. */
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { dotPicture } from "../../src/emit/picture-dot.js";
import { mermaidPicture } from "../../src/emit/picture-mermaid.js";
import { svgPicture } from "../../src/emit/picture-svg.js";

const text = `graph research {
  envelope 1.4
  entry lead
  agent lead: supervisor {
    join all of sanctions, media within 600 seconds
    terminal done
  }
  agent sanctions: worker
  agent media: worker
  delegate lead -> sanctions {
    fan_out checks
    max_rounds 1
  }
  delegate lead -> media {
    fan_out checks
    max_rounds 1
  }
  return sanctions -> lead
  return media -> lead
}
`;

describe("pictures of fan-outs and joins", () => {
  const result = checkText("r.seam", text);
  const graph = result.graphs[0];
  if (graph === undefined) throw new Error("no graph");

  it("checks clean", () => {
    expect(result.diagnostics).toEqual([]);
  });

  it("draws the fan-out as a trapezoid its branches leave from, and the join agent narrowing (Mermaid)", () => {
    const lines = mermaidPicture(graph).split("\n");
    expect(lines).toContain('  a0[\\"lead<br/>supervisor<br/>join all of sanctions, media within 600 seconds"/]');
    expect(lines).toContain('  f0[/"fan_out checks<br/>2 branches"\\]');
    expect(lines).toContain("  a0 --> f0");
    expect(lines).toContain('  f0 -->|"delegate<br/>max_rounds 1"| a1');
    expect(lines).toContain('  f0 -->|"delegate<br/>max_rounds 1"| a2');
    expect(lines).not.toContain('  a0 -->|"delegate<br/>max_rounds 1"| a1');
  });

  it("says the same in DOT", () => {
    const lines = dotPicture(graph).split("\n");
    expect(lines).toContain('  "lead" [label="lead\\nsupervisor\\njoin all of sanctions, media within 600 seconds", shape="invtrapezium"];');
    expect(lines).toContain('  "/fan-out/lead/checks" [label="fan_out checks\\n2 branches", shape="trapezium", fontsize="9"];');
    expect(lines).toContain('  "lead" -> "/fan-out/lead/checks";');
    expect(lines).toContain('  "/fan-out/lead/checks" -> "sanctions" [label=" delegate \\n max_rounds 1 "];');
  });

  it("lays the fan-out node out in SVG", async () => {
    const svg = await svgPicture(graph);
    expect(svg.ok).toBe(true);
    if (!svg.ok) return;
    expect(svg.svg).toContain("<title>/fan&#45;out/lead/checks</title>");
    expect(svg.svg).toContain(">fan_out checks</text>");
  });
});
