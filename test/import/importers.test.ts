// Each importer on a fixture written with (or dumped from) the real library: the exact .seam it
// writes, and the round trip every import must pass: `seam check` reports only the marked guesses,
// one finding per marker; the text is already in `seam fmt`'s layout; with the markers deleted
// (every guess confirmed) the graph checks clean.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { importCrewAi, importFile, toSeam, type ImportedGraph } from "../../src/import/index.js";
import { formatSource } from "../../src/parser/print.js";

const FIXTURES = new URL("../fixtures/import/", import.meta.url);
const read = (name: string): string => readFileSync(new URL(name, FIXTURES), "utf8");
const source = (name: string) => createSourceFile(name, read(name));

function seamOf(graph: ImportedGraph): string {
  const written = toSeam(graph);
  if (!written.ok) throw new Error(written.message);
  return written.output.text;
}

function imported(format: "langgraph" | "openai-agents" | "autogen" | "asl" | "mermaid", file: string, name: string): string {
  const result = importFile(format, source(file), name);
  if (!result.ok) throw new Error(result.problem.message);
  return seamOf(result.graph);
}

/** The round trip every import passes. */
function expectRoundTrip(text: string): void {
  const markers = text.split("\n").filter((line) => line.trimStart().startsWith("// seam-guess ")).length;
  const { diagnostics } = checkText("imported.seam", text);
  expect(diagnostics.map((d) => `${d.rule} ${d.severity}`)).toEqual(Array(markers).fill("import-guess info"));
  const formatted = formatSource(createSourceFile("imported.seam", text));
  expect(formatted.ok && formatted.changed).toBe(false);
  const confirmed = text
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("// seam-guess "))
    .join("\n");
  expect(checkText("confirmed.seam", confirmed).diagnostics).toEqual([]);
}

const CASES = [
  ["langgraph", "langgraph-supervisor.json", "langgraph-supervisor", "langgraph-supervisor.seam"],
  ["langgraph", "langgraph-parallel.json", "langgraph-parallel", "langgraph-parallel.seam"],
  ["openai-agents", "openai-triage.json", "openai-triage", "openai-triage.seam"],
  ["autogen", "autogen-flow.json", "autogen-flow", "autogen-flow.seam"],
  ["autogen", "autogen-parallel.json", "autogen-parallel", "autogen-parallel.seam"],
  ["asl", "refund.asl.json", "refund.asl", "refund-asl.seam"],
  ["asl", "screening.asl.json", "screening.asl", "screening-asl.seam"],
  ["mermaid", "flowchart.mmd", "flowchart", "flowchart.seam"],
] as const;

describe("importers on the real libraries' shapes", () => {
  for (const [format, file, name, expected] of CASES) {
    it(`${format}: ${file} gives expected/${expected}, and round-trips`, () => {
      const text = imported(format, file, name);
      expect(text).toBe(read(`expected/${expected}`));
      expectRoundTrip(text);
    });
  }

  for (const process of ["sequential", "hierarchical"] as const) {
    it(`crewai (${process}): crew/config gives expected/crew-${process}.seam, and round-trips`, async () => {
      const result = await importCrewAi({ agents: source("crew/config/agents.yaml"), tasks: source("crew/config/tasks.yaml"), process, manager: "manager" }, "crew");
      if (!result.ok) throw new Error(result.problem.message);
      const text = seamOf(result.graph);
      expect(text).toBe(read(`expected/crew-${process}.seam`));
      expectRoundTrip(text);
    });
  }

  it("writes the same bytes every time (deterministic)", () => {
    expect(imported("langgraph", "langgraph-supervisor.json", "x")).toBe(imported("langgraph", "langgraph-supervisor.json", "x"));
  });
});

describe("what each mapping states exactly", () => {
  it("langgraph: __start__ edges are entries, __end__ edges terminals named after their branch, conditional edges routes", () => {
    const text = imported("langgraph", "langgraph-supervisor.json", "g");
    expect(text).toContain("entry supervisor_\n");
    expect(text).toContain("terminal FINISH complete");
    expect(text).toContain("delegate supervisor_ -> coder when allowed_next_step is coder\n");
    expect(text).toContain("delegate supervisor_ -> researcher otherwise\n");
  });

  it("openai-agents: handoffs are transfers between peers, input_type fields that are envelope fields are required", () => {
    const text = imported("openai-agents", "openai-triage.json", "g");
    expect(text).toContain("transfer Triage_Agent -> Billing_Agent {\n");
    expect(text).toContain("    require constraints, artefacts\n");
    expect(text).toContain("which the envelope has no field for");
    expect(text).not.toContain("seam-guess role");
    expect(text).not.toContain("seam-guess kind");
  });

  it("asl: Choice branches are routes of the state before it, Fail and Succeed states terminals, a Parallel state a transfer enters stays plain edges, marked", () => {
    const text = imported("asl", "refund.asl.json", "g");
    expect(text).toContain(
      "  // seam-guess fan-out -- AWS Step Functions runs Fraud, Policy at once from Review; written as plain edges: only a supervisor fans out, and if Review were one, CheckClaim -> Review would hand a whole task to a supervisor\n",
    );
    expect(text).toContain("  // seam-guess fan-out -- AWS Step Functions waits at Pay for Fraud, Policy; written as plain edges: the fan-out it waits for is written as plain edges\n");
    expect(text).toContain('terminal Refused failed "The claim does not meet the refund policy."');
    expect(text).toContain("terminal Paid complete");
    expect(text).toContain("transfer CheckClaim -> Review when allowed_next_step is Review\n");
    expect(text.match(/seam-guess fan-out/g)?.length).toBe(4);
  });

  it("autogen: edges sharing a condition are a fan-out of a supervisor, an all-activation target with two sources its join", () => {
    const text = imported("autogen", "autogen-flow.json", "g");
    expect(text).toContain(
      '  delegate editor -> legal {\n    // seam-guess fan-out -- AutoGen GraphFlow takes these edges when the message of editor matches "APPROVE"; a Seam fan-out states no condition\n    fan_out APPROVE\n  }\n',
    );
    expect(text).toContain("  agent editor: supervisor\n");
    expect(text).toContain("  agent publisher: peer {\n    join all of legal, style\n");
  });
});

describe("what an import leaves out", () => {
  it("notes an edge from an agent to itself once, however many routes loop back, in words that follow 'Left out:'", () => {
    const graph: ImportedGraph = {
      source: "AWS Step Functions",
      name: "loops",
      nodes: [
        { id: "A", ends: [] },
        { id: "B", ends: [{ name: "done" }] },
      ],
      edges: [
        { from: "A", to: "A" },
        { from: "A", to: "B" },
        { from: "A", to: "A" },
      ],
      entries: ["A"],
      notes: [],
    };
    const written = toSeam(graph);
    if (!written.ok) throw new Error(written.message);
    expect(written.output.decided.notes).toEqual(['the edge from "A" to itself (in Seam an agent that keeps working needs no handoff)']);
    expect(written.output.text).toContain('// Left out: the edge from "A" to itself (in Seam an agent that keeps working needs no handoff).\n');
  });
});

describe("fan-outs and joins", () => {
  it("langgraph: plain edges out of one node are a fan-out of a supervisor, the node both branches hand off to joins them (exact)", () => {
    const text = imported("langgraph", "langgraph-parallel.json", "g");
    expect(text).toContain("  // seam-guess role -- LangGraph does not say who supervises: plan fans out, which only a supervisor does\n  agent plan: supervisor\n");
    expect(text).toContain("  delegate plan -> search_web { fan_out plan }\n");
    expect(text).toContain("  agent write: peer {\n    join all of search_papers, search_web\n");
    expect(text).not.toContain("seam-guess fan-out");
    expect(text).not.toContain("seam-guess join");
  });

  it("langgraph: conditional edges of a node in seam_send are a fan-out, marked", () => {
    const text = langgraph({
      nodes: ["__start__", "draft", "legal", "style", "publish", "__end__"].map((id) => ({ id })),
      edges: [
        { source: "__start__", target: "draft" },
        { source: "draft", target: "legal", conditional: true },
        { source: "draft", target: "style", conditional: true },
        { source: "legal", target: "publish" },
        { source: "style", target: "publish" },
        { source: "publish", target: "__end__" },
      ],
      seam_send: ["draft"],
    });
    expect(text).toContain(
      "  delegate draft -> legal {\n    // seam-guess fan-out -- the conditional edge function of draft builds Send objects: LangGraph runs each Send at once\n    fan_out draft\n  }\n",
    );
    expect(text).toContain("    join all of legal, style\n");
    expectRoundTrip(text);
  });

  it("langgraph: a Send to one node stays one edge, marked; several starts are one entry list, marked", () => {
    const text = langgraph({
      nodes: ["__start__", "a", "b", "w", "__end__"].map((id) => ({ id })),
      edges: [
        { source: "__start__", target: "a" },
        { source: "__start__", target: "b" },
        { source: "a", target: "w", conditional: true },
        { source: "b", target: "w" },
        { source: "w", target: "__end__" },
      ],
      seam_send: ["a"],
    });
    expect(text).toContain("  // seam-guess fan-out -- LangGraph may run w several times at once from a; a Seam fan-out has one branch per agent\n");
    expect(text).toContain("  // seam-guess entry -- LangGraph starts a, b at once; a Seam task starts at one of them\n  entry a, b\n");
    expectRoundTrip(text);
  });

  it("a fan-out whose node a transfer enters stays plain edges, and so does its join, each marked with why", () => {
    const text = langgraph({
      nodes: ["__start__", "intake", "plan", "x", "y", "merge", "__end__"].map((id) => ({ id })),
      edges: [
        { source: "__start__", target: "intake" },
        { source: "intake", target: "plan", conditional: true },
        { source: "intake", target: "__end__", conditional: true },
        { source: "plan", target: "x" },
        { source: "plan", target: "y" },
        { source: "x", target: "merge" },
        { source: "y", target: "merge" },
        { source: "merge", target: "__end__" },
      ],
    });
    expect(text).toContain(
      "  // seam-guess fan-out -- LangGraph runs x, y at once from plan; written as plain edges: only a supervisor fans out, and if plan were one, intake -> plan would hand a whole task to a supervisor\n",
    );
    expect(text).toContain("  // seam-guess fan-out -- LangGraph waits at merge for x, y; written as plain edges: the fan-out it waits for is written as plain edges\n");
    expect(text).not.toContain("fan_out");
    expect(text).not.toMatch(/^\s*join /m);
    expectRoundTrip(text);
  });

  it("autogen: an activation group with activation_condition any is a join any", () => {
    const text = imported("autogen", "autogen-parallel.json", "g");
    expect(text).toContain("  delegate lead -> sanctions { fan_out lead }\n");
    expect(text).toContain("    join any of sanctions, media\n");
  });

  it("autogen: a join no one fan-out starts stays plain edges, marked", () => {
    const text = autogen({
      nodes: {
        a: { name: "a", edges: [{ target: "b" }, { target: "c", condition: "left" }, { target: "d", condition: "right" }] },
        b: { name: "b", edges: [{ target: "c" }] },
        c: { name: "c", edges: [{ target: "d", activation_group: "g" }] },
        d: { name: "d", edges: [] },
      },
      default_start_node: "a",
    });
    expect(text).toContain("  // seam-guess fan-out -- AutoGen GraphFlow waits at c for a, b; written as plain edges: no one fan-out starts all its inputs\n");
    expectRoundTrip(text);
  });

  it("asl: a Parallel state at the start fans out, the state after it joins the branches' last states", () => {
    const text = imported("asl", "screening.asl.json", "g");
    expect(text).toContain("  delegate Screen -> Search { fan_out Screen }\n");
    expect(text).toContain("  agent Decide: peer {\n    join all of Sanctions, Summarise\n");
  });

  it("asl: a branch that can end at two states makes the join count branches (K of)", () => {
    const text = asl({
      StartAt: "Screen",
      States: {
        Screen: {
          Type: "Parallel",
          Next: "Decide",
          Branches: [
            { StartAt: "A", States: { A: { Type: "Task", End: true } } },
            {
              StartAt: "B",
              States: {
                B: { Type: "Task", Next: "Pick" },
                Pick: { Type: "Choice", Choices: [{ Next: "C" }], Default: "D" },
                C: { Type: "Task", End: true },
                D: { Type: "Task", End: true },
              },
            },
          ],
        },
        Decide: { Type: "Task", End: true },
      },
    });
    expect(text).toContain("    join 2 of A, C, D\n");
    expectRoundTrip(text);
  });
});

function fromJson(format: "langgraph" | "autogen" | "asl", value: unknown): string {
  const result = importFile(format, createSourceFile("g.json", JSON.stringify(value)), "g");
  if (!result.ok) throw new Error(result.problem.message);
  return seamOf(result.graph);
}
const langgraph = (value: unknown): string => fromJson("langgraph", value);
const autogen = (value: unknown): string => fromJson("autogen", value);
const asl = (value: unknown): string => fromJson("asl", value);
