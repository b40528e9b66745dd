import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderSyntaxDiagrams } from "../../src/parser/spec/syntax-diagrams.js";

describe("grammar/diagrams.html", () => {
  const html = renderSyntaxDiagrams();

  it("is what `npm run grammar` writes from the current grammar", () => {
    const committed = readFileSync(new URL("../../grammar/diagrams.html", import.meta.url), "utf8");
    expect(committed === html, "grammar/diagrams.html is stale: run `npm run build && npm run grammar`").toBe(true);
  });

  it("draws every rule and loads nothing from the network", () => {
    for (const rule of ["file", "graph", "graphItem", "agentDecl", "edgeDecl", "fieldPath"]) {
      expect(html).toContain(`"name": "${rule}"`);
    }
    expect(html).not.toMatch(/<script src=|<link |https?:\/\/unpkg/);
    expect(html).toContain("drawDiagramsFromSerializedGrammar");
    expect(html).toContain("Railroad Diagrams");
  });
});
