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
  ["openai-agents", "openai-triage.json", "openai-triage", "openai-triage.seam"],
  ["autogen", "autogen-flow.json", "autogen-flow", "autogen-flow.seam"],
  ["asl", "refund.asl.json", "refund.asl", "refund-asl.seam"],
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

  it("asl: Choice branches are routes of the state before it, Fail and Succeed states terminals, Parallel branches marked fan-out", () => {
    const text = imported("asl", "refund.asl.json", "g");
    expect(text).toContain('terminal Refused failed "The claim does not meet the refund policy."');
    expect(text).toContain("terminal Paid complete");
    expect(text).toContain("transfer CheckClaim -> Review when allowed_next_step is Review\n");
    expect(text.match(/seam-guess fan-out/g)?.length).toBe(4);
  });

  it("autogen: edges sharing a condition are a fan-out, an all-activation target with two sources a join", () => {
    const text = imported("autogen", "autogen-flow.json", "g");
    expect(text).toContain('takes every edge out of editor whose condition "APPROVE" matches, at once');
    expect(text).toContain("AutoGen waits for all of legal, style (activation group publisher) before publisher runs: a join");
  });
});
