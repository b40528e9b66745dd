import { describe, expect, it } from "vitest";
import { createSourceFile, getLineAndColumn, getOffset } from "../../src/core/source-file.js";
import { agentDeclarations, agentSymbols, commentAt, nodePathAt, wholeGraphs } from "../../src/parser/navigate.js";
import { parse } from "../../src/parser/parse.js";

const text = "graph g {\n  entry a // start\n  agent a: supervisor\n  agent b: worker\n  delegate a -> b\n  return b -> \n}\n";
const file = createSourceFile("n.seam", text);
const { ast } = parse(file);

describe("navigate", () => {
  it("finds the nodes under a position, innermost last, in an edge still being typed", () => {
    const inTarget = text.indexOf("-> b") + 3;
    expect(nodePathAt(ast, inTarget).map((n) => n.kind)).toEqual(["File", "Graph", "Edge", "Identifier"]);
    const afterArrow = text.indexOf("b -> \n") + 4;
    expect(nodePathAt(ast, afterArrow).map((n) => n.kind)).toEqual(["File", "Graph", "Edge"]);
    expect(nodePathAt(ast, afterArrow).at(-1)).toMatchObject({ kind: "Edge", from: { name: "b" }, to: undefined, hasError: true });
  });

  it("tells comments apart", () => {
    expect(commentAt(ast, text.indexOf("start"))?.text).toBe("// start");
    expect(commentAt(ast, text.indexOf("entry"))).toBeUndefined();
  });

  it("lists every agent with its declaration and references", () => {
    const graph = wholeGraphs(ast)[0]!;
    const symbols = agentSymbols(graph);
    const a = symbols.get("a")!;
    expect(a.declaration?.range).toEqual({ start: text.indexOf("a: supervisor"), end: text.indexOf("a: supervisor") + 1 });
    expect(a.references.map((r) => r.range.start)).toEqual([text.indexOf("entry a") + 6, text.indexOf("delegate a") + 9]);
    expect(symbols.get("b")!.references).toHaveLength(2);
    expect(agentDeclarations(graph).map((d) => d.name?.name)).toEqual(["a", "b"]);
  });

  it("converts positions both ways", () => {
    const offset = text.indexOf("delegate");
    expect(getOffset(file, getLineAndColumn(file, offset))).toBe(offset);
    expect(getOffset(file, { line: 2, column: 999 })).toBe(text.indexOf("\n  agent a"));
    expect(getOffset(file, { line: 99, column: 1 })).toBe(text.length);
  });
});
