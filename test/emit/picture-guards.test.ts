/** Guards, floors and gates in the pictures: guards as edge labels, an approval gate as its own shape. */
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { dotPicture } from "../../src/emit/picture-dot.js";
import { mermaidPicture } from "../../src/emit/picture-mermaid.js";

const text = `graph payouts {
  entry desk
  agent desk: supervisor { terminal done }
  agent approver: worker { gate }
  agent payer: worker { effect "moves money" terminal paid }
  delegate desk -> approver { max_rounds 1 }
  return approver -> desk when status is waiting_review, blocked, failed
  transfer approver -> payer otherwise { min_confidence 0.9 }
}
`;

describe("pictures of guarded edges and gates", () => {
  const graph = checkText("p.seam", text).graphs[0];
  if (graph === undefined) throw new Error("no graph");

  it("labels a guarded edge with its guard and floor, and draws the gate as a hexagon (Mermaid)", () => {
    const mermaid = mermaidPicture(graph);
    expect(mermaid).toContain('{{"approver<br/>worker<br/>approval gate"}}');
    expect(mermaid).toContain('"payer<br/>worker<br/>effect: moves money"');
    expect(mermaid).toContain("return<br/>when status is waiting_review, blocked, failed");
    expect(mermaid).toContain("transfer<br/>otherwise<br/>min_confidence 0.9");
  });

  it("says the same in DOT", () => {
    const dot = dotPicture(graph);
    expect(dot).toContain('"approver" [label="approver\\nworker\\napproval gate", shape="hexagon"');
    expect(dot).toContain('"approver" -> "desk" [label=" return \\n when status is waiting_review, blocked, failed "]');
    expect(dot).toContain('"approver" -> "payer" [label=" transfer \\n otherwise \\n min_confidence 0.9 "]');
  });
});
