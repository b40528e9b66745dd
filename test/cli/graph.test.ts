import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { graphCommand } from "../../src/cli/commands/graph.js";
import { SVG_MAX_EDGES, SVG_MAX_NODES } from "../../src/emit/picture-svg.js";
import { makeTempDir, removeTempDirs } from "../emit/helpers.js";
import { createFakeIo } from "./fake-io.js";

const fixtures = fileURLToPath(new URL("../fixtures/cli/", import.meta.url));

afterAll(() => removeTempDirs());

async function graph(argv: string[], cwd = fixtures) {
  const io = createFakeIo(cwd);
  const code = await run(["graph", ...argv], io);
  return { code, out: io.out(), err: io.err() };
}

describe("seam graph", () => {
  it("prints Mermaid by default", async () => {
    const r = await graph(["clean.seam"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^---\ntitle: "clean: hop limit 3 \(auto: longest walk 2\)"\n---\nflowchart TD\n/);
    expect(r.err).toBe("");
  });

  it("prints DOT and SVG on request", async () => {
    const dot = await graph(["clean.seam", "--format", "dot"]);
    expect(dot.code).toBe(0);
    expect(dot.out).toMatch(/^digraph "clean" \{/);
    const svg = await graph(["clean.seam", "--format", "svg"]);
    expect(svg.code).toBe(0);
    expect(svg.out).toContain("<svg");
  });

  it("draws a graph with analysis errors (the picture shows them)", async () => {
    const r = await graph(["error.seam", "--format", "dot"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('"helper" [label="helper\\npeer\\nunreachable"');
  });

  it("refuses a file with syntax errors: prints them on stderr and exits 1", async () => {
    const r = await graph(["syntax.seam"]);
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toContain("syntax.seam:3:14 - error syntax: expected ':'");
    expect(r.err).not.toContain("no-terminal-path");
    expect(r.err).toMatch(/seam: syntax\.seam: not drawn because of syntax errors \(.+\)\n$/);
  });

  it("asks which graph to draw when the file holds several, and draws the one named", async () => {
    const ambiguous = await graph(["two-graphs.seam"]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toBe("seam: two-graphs.seam: holds 2 graphs (first, second) (pick one with --name <graph>)\n");
    const named = await graph(["two-graphs.seam", "--name", "second", "--format", "dot"]);
    expect(named.code).toBe(0);
    expect(named.out).toMatch(/^digraph "second"/);
    const unknown = await graph(["two-graphs.seam", "--name", "third"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe("seam: two-graphs.seam: no graph named 'third' (the file holds: first, second)\n");
  });

  it("exits 2 for a file that cannot be read", async () => {
    const r = await graph(["missing.seam"]);
    expect(r.code).toBe(2);
    expect(r.err).toBe("seam: missing.seam: no such file or folder (check the path)\n");
  });

  it("refuses SVG for a graph over the node limit with one line and exit 2, and still draws it as DOT", async () => {
    const n = SVG_MAX_NODES;
    const lines = ["graph chain {", "  entry a0"];
    for (let i = 0; i < n; i++) lines.push(`  agent a${i}: worker${i === n - 1 ? " { terminal done }" : ""}`);
    for (let i = 0; i + 1 < n; i++) lines.push(`  transfer a${i} -> a${i + 1}`);
    const dir = makeTempDir("graph");
    writeFileSync(join(dir, "chain.seam"), [...lines, "}", ""].join("\n"));
    const svg = await graph(["chain.seam", "--format", "svg"], dir);
    expect(svg.code).toBe(2);
    expect(svg.out).toBe("");
    expect(svg.err).toBe(
      `seam: chain.seam: the graph is too large for SVG rendering: ${n + 1} nodes (agents and terminals), more than the ${SVG_MAX_NODES} it lays out (use --format dot or mermaid)\n`,
    );
    const dot = await graph(["chain.seam", "--format", "dot"], dir);
    expect(dot.code).toBe(0);
    expect(dot.out).toMatch(/^digraph "chain"/);
  });

  it("stops an SVG layout at its time budget with one line and exit 2", async () => {
    const io = createFakeIo(fixtures);
    const code = await graphCommand({ file: "clean.seam", format: "svg", svgTimeBudgetMs: 1 }, io);
    expect(code).toBe(2);
    expect(io.out()).toBe("");
    expect(io.err()).toBe(
      "seam: clean.seam: the graph is too large for SVG rendering: Graphviz's layout ran past its budget of 1 ms and was stopped (use --format dot or mermaid)\n",
    );
  });

  it("refuses SVG for a graph over the edge limit with one line and exit 2", async () => {
    const n = 40;
    const lines = ["graph dense {", "  entry a0"];
    for (let i = 0; i < n; i++) lines.push(`  agent a${i}: peer${i === n - 1 ? " { terminal done }" : ""}`);
    for (let i = 0; i < n; i++) for (let k = 1; k <= 16; k++) lines.push(`  transfer a${i} -> a${(i + k) % n} { max_rounds 1 }`);
    const dir = makeTempDir("graph");
    writeFileSync(join(dir, "dense.seam"), [...lines, "}", ""].join("\n"));
    const svg = await graph(["dense.seam", "--format", "svg"], dir);
    expect(svg.code).toBe(2);
    expect(svg.err).toBe(
      `seam: dense.seam: the graph is too large for SVG rendering: ${n * 16 + 2} edges (handoffs, terminals and entries), more than the ${SVG_MAX_EDGES} it lays out (use --format dot or mermaid)\n`,
    );
  });
});
