import { describe, expect, it } from "vitest";
import type { AgentDecl, EdgeDecl, GraphDecl } from "../../src/parser/ast.js";
import { parse } from "../../src/parser/parse.js";
import { createSourceFile } from "../../src/core/source-file.js";

// A block keeps its first item aside and makes an array only for a second one (most blocks of a
// large graph hold one item): every count of items, with skipped garbage between them and an
// unclosed block, must come out as the items in source order, each once.
function graphOf(text: string): { graph: GraphDecl; errors: number } {
  const { ast, diagnostics } = parse(createSourceFile("t.seam", text));
  return { graph: ast.graphs[0] as GraphDecl, errors: diagnostics.length };
}

describe("block items", () => {
  it("keeps 0 to 20 items of an agent and an edge block in source order", () => {
    for (let n = 0; n <= 20; n++) {
      const terminals = Array.from({ length: n }, (_, i) => `terminal t${i}`).join(" ");
      const rounds = Array.from({ length: n }, (_, i) => `max_rounds ${i + 1}`).join(" ");
      const { graph, errors } = graphOf(`graph g { agent a: worker { ${terminals} } delegate a -> a { ${rounds} } }`);
      expect(errors).toBe(0);
      const agent = graph.items[0] as AgentDecl;
      const edge = graph.items[1] as EdgeDecl;
      expect(agent.items.map((item) => (item.kind === "Terminal" ? item.name?.name : item.kind))).toEqual(Array.from({ length: n }, (_, i) => `t${i}`));
      expect(edge.items.map((item) => (item.kind === "MaxRounds" ? item.value?.value : item.kind))).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(agent.items.length).toBe(n);
    }
  });

  it("keeps the items around skipped tokens and in an unclosed block", () => {
    const { graph } = graphOf("graph g { agent a: worker { terminal x -> terminal y 7 gate } agent b: worker { terminal z");
    const [a, b] = graph.items as AgentDecl[];
    expect(a?.items.map((item) => item.kind)).toEqual(["Terminal", "Terminal", "Gate"]);
    expect(b?.items.map((item) => item.kind)).toEqual(["Terminal"]);
  });
});
