import { describe, expect, it } from "vitest";
import { check, checkText, createGraphAccept, createSourceFile, emitCompileOutput, getLineAndColumn, mermaidPicture, parse, ruleCatalog } from "../src/index.js";

const GRAPH = `graph desk {
  entry triage
  agent triage: supervisor { terminal closed }
  agent billing: worker
  delegate triage -> billing { max_rounds 1 }
  return billing -> triage
}
`;

describe("public API", () => {
  it("parses, checks and emits a graph through the package's entry point", () => {
    const file = createSourceFile("desk.seam", GRAPH);
    expect(parse(file).diagnostics).toEqual([]);
    const result = check(file);
    expect(result.diagnostics).toEqual([]);
    const graph = result.graphs[0];
    expect(graph?.hopLimit.value).toBe(3);
    const paths = emitCompileOutput(result.graphs).map((f) => f.path);
    expect(paths).toContain("desk.validators.mjs");
    expect(mermaidPicture(graph!)).toContain("triage");
    expect(typeof createGraphAccept(graph!).accept).toBe("function");
  });

  it("reports problems as diagnostics with positions, never by throwing", () => {
    const result = checkText("bad.seam", "graph g { entry a agent a: worker transfer a -> b }");
    const unknown = result.diagnostics.find((d) => d.rule === "unknown-agent");
    expect(unknown?.severity).toBe("error");
    expect(getLineAndColumn(result.file, unknown!.range.start)).toEqual({ line: 1, column: 49 });
  });

  it("lists every rule id once in the catalogue", () => {
    const ids = ruleCatalog.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining(["syntax", "no-terminal-path", "unbounded-cycle", "hop-limit-unbounded"]));
  });
});
