// The importers against the real frameworks: graphs built with LangGraph (Python and JS), the
// OpenAI Agents SDK (Python and JS), AutoGen and CrewAI, loaded by `seam import --run` (or dumped
// by the library itself), imported, and round-tripped: `seam check` reports only the marked
// guesses, the text is formatted, and the committed fixtures are what the libraries produce.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { run } from "../../src/cli/run.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { formatSource } from "../../src/parser/print.js";
import { createFakeIo } from "../cli/fake-io.js";
import { missing, nodeHas, pythonHas, ROOT, venvHow, venvPython, type PythonFramework } from "./frameworks.js";

const FIXTURES = join(ROOT, "test/fixtures/import");
const quiet = { ...process.env, CREWAI_DISABLE_TELEMETRY: "true", OTEL_SDK_DISABLED: "true", OPENAI_API_KEY: "sk-not-used" };

async function importRun(format: string, spec: string, extra: string[] = []): Promise<string> {
  const io = createFakeIo(FIXTURES);
  const code = await run(["import", "--run", format, spec, ...extra], io);
  expect(io.err()).toMatch(/seam: imported \d+ agents/);
  expect(code).toBe(0);
  return io.out();
}

/** Only the marked guesses, one finding each, and already formatted. */
function expectRoundTrip(text: string): void {
  const markers = text.split("\n").filter((line) => line.trimStart().startsWith("// seam-guess ")).length;
  expect(checkText("imported.seam", text).diagnostics.map((d) => d.rule)).toEqual(Array(markers).fill("import-guess"));
  const formatted = formatSource(createSourceFile("imported.seam", text));
  expect(formatted.ok && formatted.changed).toBe(false);
}

/** The structure of a .seam text: agents, edges, entries, ends. */
function shape(text: string) {
  const graph = checkText("s.seam", text).graphs[0];
  return {
    agents: graph?.agents.map((a) => a.id).sort(),
    edges: graph?.edges.map((e) => `${e.kind} ${e.from} -> ${e.to}`).sort(),
    entries: graph?.entries,
    fanOuts: graph?.edges.filter((e) => e.fanOut !== undefined).map((e) => `${e.from} -> ${e.to} fan_out ${e.fanOut}`).sort(),
    joins: graph?.agents.filter((a) => a.join !== undefined).map((a) => `${a.id}: ${a.join?.wait} of ${[...(a.join?.inputs ?? [])].sort().join(", ")}`),
    ends: graph?.agents.filter((a) => a.terminals.length > 0).map((a) => a.id).sort(),
  };
}

const python = (framework: PythonFramework, args: string[]): string =>
  execFileSync(venvPython(framework), args, { cwd: FIXTURES, encoding: "utf8", env: quiet });

describe("LangGraph (Python, langgraph)", () => {
  if (!pythonHas("langgraph", "langgraph")) return missing("the Python package langgraph", venvHow("langgraph"));
  it("imports the supervisor example through --run, and the committed JSON is what the library writes", async () => {
    const text = await importRun("langgraph", "supervisor_graph:graph", ["--python", venvPython("langgraph")]);
    expectRoundTrip(text);
    expect(text.replace("graph supervisor_graph {", "graph langgraph-supervisor {")).toBe(readFileSync(join(FIXTURES, "expected/langgraph-supervisor.seam"), "utf8"));
    const dumped: unknown = JSON.parse(python("langgraph", ["-c", "import json, supervisor_graph as g; print(json.dumps(g.graph.get_graph().to_json()))"]));
    expect(dumped).toEqual(JSON.parse(readFileSync(join(FIXTURES, "langgraph-supervisor.json"), "utf8")));
  }, 120_000);

  it("imports plain parallel edges and a waiting edge as a fan-out and a join, and the committed JSON is what the library writes", async () => {
    const text = await importRun("langgraph", "parallel_graph:graph", ["--python", venvPython("langgraph"), "--name", "langgraph-parallel"]);
    expectRoundTrip(text);
    expect(text).toBe(readFileSync(join(FIXTURES, "expected/langgraph-parallel.seam"), "utf8"));
    const dumped: unknown = JSON.parse(python("langgraph", ["-c", "import json, parallel_graph as g; print(json.dumps(g.graph.get_graph().to_json()))"]));
    expect(dumped).toEqual(JSON.parse(readFileSync(join(FIXTURES, "langgraph-parallel.json"), "utf8")));
  }, 120_000);

  it("finds the Send objects of a conditional edge function through --run: a fan-out, marked", async () => {
    const text = await importRun("langgraph", "parallel_graph:send_graph", ["--python", venvPython("langgraph"), "--name", "langgraph-send"]);
    expectRoundTrip(text);
    expect(text).toBe(readFileSync(join(FIXTURES, "expected/langgraph-send.seam"), "utf8"));
  }, 120_000);
});

describe("LangGraph.js (@langchain/langgraph)", async () => {
  if (!(await nodeHas("@langchain/langgraph"))) return missing("the npm package @langchain/langgraph", "npm ci");
  it("imports the same supervisor, built with LangGraph.js, to the same graph", async () => {
    const text = await importRun("langgraph", "supervisor-graph.mjs:graph");
    expectRoundTrip(text);
    expect(shape(text)).toEqual(shape(readFileSync(join(FIXTURES, "expected/langgraph-supervisor.seam"), "utf8")));
  });

  it("imports the same parallel desks, built with LangGraph.js, to the same fan-outs and joins", async () => {
    for (const [attribute, expected] of [
      ["graph", "langgraph-parallel.seam"],
      ["sendGraph", "langgraph-send.seam"],
    ] as const) {
      const text = await importRun("langgraph", `parallel-graph.mjs:${attribute}`);
      expectRoundTrip(text);
      const want = shape(readFileSync(join(FIXTURES, `expected/${expected}`), "utf8"));
      expect(want.fanOuts?.length).toBe(2);
      expect(shape(text)).toEqual(want);
    }
  });
});

describe("OpenAI Agents SDK (Python, openai-agents)", () => {
  if (!pythonHas("openai-agents", "agents")) return missing("the Python package openai-agents", venvHow("openai-agents"));
  it("imports the triage example through --run, with the input_type's envelope fields required", async () => {
    const text = await importRun("openai-agents", "triage_agents:triage", ["--python", venvPython("openai-agents")]);
    expectRoundTrip(text);
    expect(text.replace("graph triage_agents {", "graph openai-triage {")).toBe(readFileSync(join(FIXTURES, "expected/openai-triage.seam"), "utf8"));
  }, 120_000);
});

describe("OpenAI Agents SDK (JavaScript, @openai/agents)", async () => {
  if (!(await nodeHas("@openai/agents"))) return missing("the npm package @openai/agents", "npm ci");
  it("imports the same triage desk, built with the JS SDK, to the same graph", async () => {
    const text = await importRun("openai-agents", "triage-agents.mjs:triage");
    expectRoundTrip(text);
    expect(shape(text)).toEqual(shape(readFileSync(join(FIXTURES, "expected/openai-triage.seam"), "utf8")));
    expect(text).toContain("require constraints, artefacts");
  });
});

describe("AutoGen GraphFlow (autogen-agentchat)", () => {
  if (!pythonHas("autogen", "autogen_agentchat")) return missing("the Python package autogen-agentchat", venvHow("autogen"));
  it("the committed DiGraph dump is what the library writes", () => {
    expect(JSON.parse(python("autogen", ["autogen_flow.py"]))).toEqual(JSON.parse(readFileSync(join(FIXTURES, "autogen-flow.json"), "utf8")));
  }, 120_000);

  it("the committed dump of the fan-out with an any-activation group is what the library writes", () => {
    expect(JSON.parse(python("autogen", ["autogen_parallel.py"]))).toEqual(JSON.parse(readFileSync(join(FIXTURES, "autogen-parallel.json"), "utf8")));
  }, 120_000);
});

describe("CrewAI (crewai)", () => {
  if (!pythonHas("crewai", "crewai")) return missing("the Python package crewai", venvHow("crewai"));
  it("builds the crew of the fixture's YAML, in both processes, with the task order seam import reads", async () => {
    for (const process of ["sequential", "hierarchical"]) {
      const built = JSON.parse(python("crewai", ["crew/crew.py", process])) as { process: string; tasks: string[] };
      expect(built).toEqual({ process, tasks: ["researcher", "writer", "reviewer"] });
    }
    const io = createFakeIo(FIXTURES);
    expect(await run(["import", "crewai", "crew"], io)).toBe(0);
    const graph = checkText("c.seam", io.out()).graphs[0];
    expect(graph?.edges.map((e) => `${e.from} -> ${e.to}`)).toEqual(["researcher -> writer", "writer -> reviewer"]);
  }, 120_000);
});
