import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createSourceFile, getLineAndColumn } from "../../src/core/source-file.js";
import type { AgentDecl, EdgeDecl, GraphDecl } from "../../src/parser/ast.js";
import { parse } from "../../src/parser/parse.js";

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/parser/${name}`, import.meta.url), "utf8");

function parseText(text: string) {
  const file = createSourceFile("test.seam", text);
  const result = parse(file);
  return { file, ...result };
}

describe("parse: the DESIGN.md example", () => {
  const text = fixture("design-example.seam");
  const { ast, diagnostics } = parseText(text);
  const graph = ast.graphs[0] as GraphDecl;

  it("has no diagnostics and one graph", () => {
    expect(diagnostics).toEqual([]);
    expect(ast.graphs).toHaveLength(1);
    expect(ast.languageVersion?.value.value).toBe(1);
    expect(graph.name.name).toBe("supplier_due_diligence");
  });

  it("keeps every item in source order", () => {
    expect(graph.items.map((i) => i.kind)).toEqual([
      "Envelope", "Entry", "HopLimit", "OnHopLimit", "LoopSignature",
      "Agent", "Agent", "Agent", "Agent", "Contract",
      "Edge", "Edge", "Edge", "Edge", "Edge", "Edge",
    ]);
  });

  it("gives ranges that cover the source text of each node", () => {
    const slice = (r: { start: number; end: number }) => text.slice(r.start, r.end);
    expect(slice(graph.name.range)).toBe("supplier_due_diligence");
    const intake = graph.items[5] as AgentDecl;
    expect(slice(intake.range)).toMatch(/^agent intake: supervisor \{[\s\S]*"request refused at intake"\n  \}$/);
    expect(intake.role.value).toBe("supervisor");
    const edge = graph.items[10] as EdgeDecl;
    expect(slice(edge.range)).toBe("delegate intake -> research { max_rounds 2 }");
    expect(edge.from.name).toBe("intake");
    expect(edge.to.name).toBe("research");
    expect(edge.items).toEqual([
      expect.objectContaining({ kind: "MaxRounds", value: expect.objectContaining({ value: 2 }) }),
    ]);
    const observed = graph.items[15] as EdgeDecl;
    expect(observed.observe && slice(observed.observe)).toBe("observe");
  });
});

describe("parse: errors", () => {
  it("reports a broken edge and keeps the agents around it", () => {
    const { ast, diagnostics, file } = parseText(
      "graph g {\n  agent a: worker\n  delegate a b\n  agent b: worker\n}\n",
    );
    expect(diagnostics).toHaveLength(1);
    const d = diagnostics[0]!;
    expect(d.rule).toBe("syntax");
    expect(d.severity).toBe("error");
    expect(getLineAndColumn(file, d.range.start)).toEqual({ line: 3, column: 14 });
    expect(d.message).toBe("expected '->' after 'a', found 'b'");
    const names = ast.graphs[0]!.items.filter((i): i is AgentDecl => i.kind === "Agent").map((a) => a.name.name);
    expect(names).toEqual(["a", "b"]);
  });
});
