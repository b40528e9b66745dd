import { existsSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { makeTempDir, removeTempDirs } from "../emit/helpers.js";
import { createFakeIo } from "./fake-io.js";

const fixtures = fileURLToPath(new URL("../fixtures/import/", import.meta.url));
afterAll(() => removeTempDirs());

async function seam(argv: string[], cwd = fixtures) {
  const io = createFakeIo(cwd);
  const code = await run(argv, io);
  return { code, out: io.out(), err: io.err() };
}

describe("seam import", () => {
  it("prints the .seam file on stdout and a summary with the renamed names on stderr", async () => {
    const r = await seam(["import", "openai-agents", "openai-triage.json"]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(readFileSync(join(fixtures, "expected/openai-triage.seam"), "utf8"));
    expect(r.err).toBe(
      [
        'seam: openai-triage.json: "Triage Agent" is not a Seam name; written as Triage_Agent',
        'seam: openai-triage.json: "Billing Agent" is not a Seam name; written as Billing_Agent',
        'seam: openai-triage.json: "Refund Agent" is not a Seam name; written as Refund_Agent',
        "seam: imported 3 agents and 3 edges; 4 guesses marked with seam-guess (seam check lists them; confirm each by deleting its comment)",
        "",
      ].join("\n"),
    );
  });

  it("says what a seam graph picture does not show, on stderr and at the top of the file, and escapes the input's name", async () => {
    const dir = makeTempDir("import");
    const picture = join(dir, "desk\u001b[2J.mmd");
    writeFileSync(picture, '---\ntitle: "desk"\n---\nflowchart TD\n  s0(("start"))\n  a0("lead<br/>peer")\n  t0>"complete<br/>done"]\n  s0 --> a0\n  a0 --> t0\n');
    const r = await seam(["import", "mermaid", picture]);
    expect(r.code).toBe(0);
    const note =
      "what a seam graph picture does not show: the envelope version, on_hop_limit, loop_signature, contracts, the fields each edge requires, terminal descriptions and comments " +
      "(the file has Seam's defaults for them; copy them from the .seam file the picture was drawn from)";
    expect(r.out).toContain(`// Left out: ${note}.\n`);
    const shown = picture.replace("\u001b", "\\u001b");
    expect(r.err).toBe(
      [
        `seam: ${shown}: left out ${note}`,
        "seam: imported 1 agent and 0 edges; 0 guesses marked with seam-guess (seam check lists them; confirm each by deleting its comment); 1 left out, listed above and at the top of the file",
        "",
      ].join("\n"),
    );
  });

  it("refuses to write a graph over the size seam check reads, and writes nothing", async () => {
    const dir = makeTempDir("import");
    const out = join(dir, "big.seam");
    // A chain of 40,000 nodes with long names: a 3 MB input whose graph is over 10 MB.
    const name = (i: number): string => `node_${"x".repeat(40)}_${i}`;
    const nodes = [{ id: "__start__" }, ...Array.from({ length: 40_000 }, (_, i) => ({ id: name(i) })), { id: "__end__" }];
    const edges = [{ source: "__start__", target: name(0) }, ...Array.from({ length: 39_999 }, (_, i) => ({ source: name(i), target: name(i + 1) })), { source: name(39_999), target: "__end__" }];
    const input = join(dir, "chain.json");
    writeFileSync(input, JSON.stringify({ nodes, edges }));
    const r = await seam(["import", "langgraph", input, "--out", out]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe(
      `seam: ${input}: the imported graph is 14.9 MB, over the 10 MB limit that seam check reads; nothing written (40000 agents, 39999 edges: import the part of the graph one contract covers)\n`,
    );
    expect(() => readFileSync(out)).toThrow();
  });

  it("writes --out, which seam check then accepts with only the guesses as info, and seam compile compiles", async () => {
    const dir = makeTempDir("import");
    const out = join(dir, "desk.seam");
    const r = await seam(["import", "langgraph", "langgraph-supervisor.json", "--out", out]);
    expect(r.code).toBe(0);
    expect(r.out).toBe("");
    expect(r.err).toContain(`seam: imported 3 agents and 4 edges to ${out}; 12 guesses marked with seam-guess`);
    const checked = await seam(["check", out, "--format", "json"]);
    expect(checked.code).toBe(0);
    expect(new Set((JSON.parse(checked.out) as { rule: string; severity: string }[]).map((d) => `${d.rule} ${d.severity}`))).toEqual(new Set(["import-guess info"]));
    const compiled = await seam(["compile", out, "--out", join(dir, "out")]);
    expect(compiled.code).toBe(0);
  });

  it("reads a crew folder, with its config/ subfolder", async () => {
    const r = await seam(["import", "crewai", "crew", "--process", "hierarchical"]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(readFileSync(join(fixtures, "expected/crew-hierarchical.seam"), "utf8"));
  });

  it("refuses two agents of one name, which a handoff cannot tell apart, and writes nothing", async () => {
    const dir = makeTempDir("import");
    const dump = {
      seam_dump: "openai-agents/1",
      start: "A",
      agents: [
        { name: "A", handoffs: [{ agent: "B", input_schema: null }] },
        { name: "A", handoffs: [{ agent: "C", input_schema: null }] },
        { name: "B", handoffs: [] },
        { name: "C", handoffs: [] },
      ],
    };
    writeFileSync(join(dir, "twice.json"), JSON.stringify(dump));
    const r = await seam(["import", "openai-agents", "twice.json", "--out", "twice.seam"], dir);
    expect(r).toMatchObject({ code: 2, out: "" });
    expect(r.err).toBe('seam: twice.json: the OpenAI Agents SDK gives two agents the name "A", and a handoff names its agent only by name (give each agent a name of its own)\n');
    expect(existsSync(join(dir, "twice.seam"))).toBe(false);
  });

  it("reports an unusable input with file:line:column and exits 2", async () => {
    const dir = makeTempDir("import");
    writeFileSync(join(dir, "bad.json"), '{\n  "StartAt": "A",\n  "States": {,}\n}\n');
    const r = await seam(["import", "asl", "bad.json"], dir);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toBe("seam: bad.json:3:14: is not valid JSON: expected a key in double quotes or '}', found ',' (give the state machine as JSON)\n");
  });

  it("refuses an input over the 10 MB limit before reading it", async () => {
    const dir = makeTempDir("import");
    const big = join(dir, "big.json");
    writeFileSync(big, "");
    truncateSync(big, 10 * 1024 * 1024 + 1);
    const r = await seam(["import", "langgraph", "big.json"], dir);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "seam: big.json: is 10485761 bytes, over the limit of 10485760 bytes (a framework's graph is a few kilobytes; give the graph's JSON, not its data)\n",
    );
  });

  it("runs no code without --run: module:attribute is read as a file name", async () => {
    const r = await seam(["import", "langgraph", "supervisor_graph:graph"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^seam: supervisor_graph:graph: (does not exist|no such file)/);
  });

  it("says what is wrong with the arguments", async () => {
    expect((await seam(["import", "dot", "x"])).err).toContain("'dot' is invalid for argument 'format'. Allowed choices are langgraph, openai-agents, autogen, crewai, asl, mermaid.");
    expect(await seam(["import", "asl", "refund.asl.json", "extra.seam"])).toMatchObject({ code: 2, err: expect.stringContaining("add --check") });
    expect(await seam(["import", "--check", "asl", "refund.asl.json"])).toMatchObject({ code: 2, err: expect.stringContaining("needs the .seam file") });
    expect(await seam(["import", "--run", "asl", "a:b"])).toMatchObject({ code: 2, err: "seam: --run works with langgraph and openai-agents only (see 'seam import --help')\n" });
    expect(await seam(["import", "--run", "langgraph", "nocolon"])).toMatchObject({ code: 2, err: expect.stringContaining("the input is module:attribute") });
    expect(await seam(["import", "--run", "--python", "/nonexistent/python", "langgraph", "m:a"])).toMatchObject({
      code: 2,
      err: 'seam: cannot run "/nonexistent/python": not found (name your interpreter with --python)\n',
    });
  });
});

describe("seam import --check", () => {
  const contract = (): string => {
    const dir = makeTempDir("import");
    const path = join(dir, "desk.seam");
    writeFileSync(path, readFileSync(join(fixtures, "expected/langgraph-supervisor.seam"), "utf8"));
    return path;
  };

  it("exits 0 with no drift", async () => {
    const r = await seam(["import", "--check", "langgraph", "langgraph-supervisor.json", contract()]);
    expect(r).toEqual({ code: 0, out: "no drift: the framework's graph and the .seam graph have the same agents, edges, entries and ends\n", err: "" });
  });

  it("exits 1 when the code gains an edge the contract lacks, one finding in every format", async () => {
    const dir = makeTempDir("import");
    const json = JSON.parse(readFileSync(join(fixtures, "langgraph-supervisor.json"), "utf8")) as { edges: unknown[] };
    json.edges.push({ source: "researcher", target: "coder" });
    writeFileSync(join(dir, "graph.json"), JSON.stringify(json));
    const path = contract();
    const message = "the LangGraph graph has an edge researcher -> coder, which this graph lacks: add it, or remove it from the code";
    const pretty = await seam(["import", "--check", "langgraph", "graph.json", path], dir);
    expect(pretty.code).toBe(1);
    expect(pretty.out).toContain(`- error drift-edge: ${message}`);
    const asJson = await seam(["import", "--check", "langgraph", "graph.json", path, "--format", "json"], dir);
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.out)).toEqual([{ file: path, rule: "drift-edge", severity: "error", message, line: 14, column: 9, endLine: 14, endColumn: 19 }]);
    const github = await seam(["import", "--check", "langgraph", "graph.json", path, "--format", "github"], dir);
    expect(github.out).toBe(`::error file=${path},line=14,endLine=14,col=9,endColumn=19,title=seam drift-edge::${message}\n`);
    const sarif = await seam(["import", "--check", "langgraph", "graph.json", path, "--format", "sarif"], dir);
    const log = JSON.parse(sarif.out) as { runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string }[] }[] };
    expect(log.runs[0]?.results.map((r) => r.ruleId)).toEqual(["drift-edge"]);
    expect(log.runs[0]?.tool.driver.rules.map((r) => r.id)).toEqual(["drift-agent", "drift-edge", "drift-entry", "drift-end"]);
    const docs = new URL("../../docs/import.md#drift-seam-import---check", import.meta.url).href;
    expect(sarif.out).toContain(JSON.stringify(docs));
    expect(sarif.out).toContain("of `seam import --check`");
  });

  it("refuses a .seam file with syntax errors, and names the graphs of a file with several", async () => {
    const dir = makeTempDir("import");
    writeFileSync(join(dir, "broken.seam"), "graph g {\n  entry\n}\n");
    expect(await seam(["import", "--check", "langgraph", join(fixtures, "langgraph-supervisor.json"), "broken.seam"], dir)).toMatchObject({ code: 2 });
    writeFileSync(join(dir, "two.seam"), "graph a {\n  entry x\n  agent x: peer { terminal t }\n}\ngraph b {\n  entry y\n  agent y: peer { terminal t }\n}\n");
    expect(await seam(["import", "--check", "langgraph", join(fixtures, "langgraph-supervisor.json"), "two.seam"], dir)).toMatchObject({
      code: 2,
      err: "seam: two.seam: holds several graphs (name one with --name: a, b)\n",
    });
  });
});
