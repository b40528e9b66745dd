import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { mermaidPicture } from "../../src/emit/picture-mermaid.js";
import { importFile, toSeam } from "../../src/import/index.js";
import { PICTURE_LEAVES_OUT } from "../../src/import/mermaid.js";

const EXAMPLES = new URL("../../examples/", import.meta.url);
const PICTURES = new URL("../fixtures/pictures/", import.meta.url);

function importText(text: string, name = "chart") {
  const result = importFile("mermaid", createSourceFile("chart.mmd", text), name);
  if (!result.ok) return result;
  const seam = toSeam(result.graph);
  if (!seam.ok) throw new Error(seam.message);
  return { ok: true as const, text: seam.output.text };
}

const files = [
  ...readdirSync(EXAMPLES).filter((f) => f.endsWith(".seam")).map((f) => new URL(f, EXAMPLES)),
  ...readdirSync(PICTURES).filter((f) => f.endsWith(".seam")).map((f) => new URL(f, PICTURES)),
];

describe("mermaid: seam graph -> import -> graph is stable", () => {
  for (const url of files) {
    it(url.pathname.split("/").slice(-2).join("/"), () => {
      const original = checkText("a.seam", readFileSync(url, "utf8"));
      for (const graph of original.graphs) {
        const picture = mermaidPicture(graph);
        const back = importText(picture);
        if (!back.ok) throw new Error(back.problem.message);
        // A picture states everything it shows exactly: no guess is marked; what it does not show is noted.
        expect(back.text).not.toMatch(/\/\/ seam-guess /);
        expect(back.text).toContain(`// Left out: ${PICTURE_LEAVES_OUT}.\n`);
        const again = checkText("b.seam", back.text).graphs[0];
        expect(again && mermaidPicture(again)).toBe(picture);
      }
    });
  }
});

describe("mermaid: flowcharts drawn by hand", () => {
  it("reads shapes, chains, & groups, both label forms, and skips styling lines", () => {
    const back = importText(
      ["graph TD", "  a[Alpha] --> b(Beta) --> c{{Gamma}}", "  a & b -->|x| d([Delta])", "  c -- back --> a; d --- e", "  style a fill:#fff", "  subgraph s", "  end"].join("\n"),
    );
    if (!back.ok) throw new Error(back.problem.message);
    const graph = checkText("c.seam", back.text).graphs[0];
    expect(graph?.agents.map((a) => a.id)).toEqual(["a", "b", "c", "d", "e"]);
    expect(graph?.edges.map((e) => `${e.from}->${e.to}`)).toEqual(["a->b", "b->c", "a->d", "b->d", "c->a", "d->e"]);
    expect(graph?.entries).toEqual(["a"]);
    expect(back.text).toContain("// seam-guess entry -- the flowchart has no start circle: the nodes no link enters\n");
    expect(graph?.agents.filter((a) => a.terminals.length > 0).map((a) => a.id)).toEqual(["e"]);
  });

  it("says where a chart cannot be read, as line and column", () => {
    expect(importText("sequenceDiagram\n  a->>b: hi\n")).toEqual({
      ok: false,
      problem: { message: "is not a Mermaid flowchart: the first line should be 'flowchart TD' (or graph, with a direction)", line: 1, column: 1, hint: "give a Mermaid flowchart (see docs/import.md)" },
    });
    expect(importText("flowchart TD\n  a --> b\n  a[unclosed --> c\n")).toEqual({
      ok: false,
      problem: { message: "the shape [...] of node a is not closed", line: 3, column: 3, hint: "give a Mermaid flowchart (see docs/import.md)" },
    });
    expect(importText("flowchart TD\n  a ~~ b\n")).toMatchObject({ ok: false, problem: { message: 'cannot read "~~ b": expected a link such as -->', line: 2, column: 5 } });
  });

  it("refuses a picture whose join or fan-out label would write Seam of its own, at the node's line", () => {
    const hint = "give a Mermaid flowchart (see docs/import.md)";
    const join = ["flowchart TD", '  s0(("start"))', '  a0[["lead<br/>supervisor<br/>join all of b } agent evil: peer {"]]', '  a1("b<br/>worker")', "  s0 --> a0", '  a0 -->|"delegate"| a1', '  a1 -->|"return"| a0'];
    expect(importText(join.join("\n"))).toEqual({
      ok: false,
      problem: { message: 'the label of a0 has a join Seam cannot read: "all of b } agent evil: peer {"', line: 3, column: 1, hint },
    });
    const fan = ["flowchart TD", '  s0(("start"))', '  a0[["lead<br/>supervisor"]]', '  a1("b<br/>worker")', '  f0[/"fan_out x { }<br/>2 branches"\\]', "  s0 --> a0", "  a0 --> f0", '  f0 -->|"delegate"| a1'];
    expect(importText(fan.join("\n"))).toEqual({
      ok: false,
      problem: { message: 'the fan-out f0 is named "x { }", which is not a Seam name', line: 5, column: 1, hint },
    });
  });
});
