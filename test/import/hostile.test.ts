// Importers read untrusted files: every bad input is a clear problem (line and column where the
// input has lines), work is bounded by the graph, and no text from the source reaches the
// output unescaped.
import { describe, expect, it } from "vitest";
import { checkText } from "../../src/analysis/check.js";
import { createSourceFile } from "../../src/core/source-file.js";
import { importCrewAi, importFile, toSeam } from "../../src/import/index.js";
import { MAX_IMPORTED_EDGES } from "../../src/import/model.js";

const file = (text: string) => createSourceFile("in.json", text);

describe("hostile input", () => {
  it("refuses a Mermaid & group that would make more edges than a .seam file holds, before making them", () => {
    const side = (prefix: string): string => Array.from({ length: 900 }, (_, i) => `${prefix}${i}`).join(" & ");
    const result = importFile("mermaid", createSourceFile("in.mmd", `flowchart LR\n  ${side("a")} --> ${side("b")}\n`), "g");
    expect(result).toEqual({
      ok: false,
      problem: {
        message: `these & groups make the flowchart's links number more than ${MAX_IMPORTED_EDGES}, more than a .seam file can hold`,
        line: 2,
        column: 3,
        hint: "give a Mermaid flowchart (see docs/import.md)",
      },
    });
  });

  it("refuses an ASL machine whose Choice states multiply its transitions past what a .seam file holds", () => {
    const n = 810;
    const states: Record<string, unknown> = {
      Start: { Type: "Task", Resource: "r", Catch: Array.from({ length: n }, () => ({ ErrorEquals: ["States.ALL"], Next: "Pick" })), End: true },
      Pick: { Type: "Choice", Choices: Array.from({ length: n }, (_, i) => ({ Variable: "$.x", NumericEquals: i, Next: `S${i}` })) },
    };
    for (let i = 0; i < n; i++) states[`S${i}`] = { Type: "Task", Resource: "r", End: true };
    const result = importFile("asl", file(JSON.stringify({ StartAt: "Start", States: states })), "g");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem.message).toBe(
      `States.Pick.Choices[${MAX_IMPORTED_EDGES % n}].Next should be part of a machine of at most ${MAX_IMPORTED_EDGES} transitions (Choice states reached from many states multiply them), more than a .seam file can hold`,
    );
  });

  it("gives the line and column of a JSON syntax error", () => {
    const result = importFile("langgraph", file('{\n  "nodes": [\n    {"id": "a",}\n  ]\n}\n'), "g");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problem).toEqual({ message: "is not valid JSON: expected a key in double quotes, found '}'", line: 3, column: 16, hint: "give the graph as JSON" });
    expect(importFile("asl", file('{"StartAt": '), "g")).toMatchObject({ ok: false, problem: { line: 1, column: 13 } });
  });

  it("refuses a key given twice in one object, at the second key, in every JSON format", () => {
    const machine = '{\n  "StartAt": "A",\n  "States": {\n    "A": { "Type": "Task", "Next": "B", "Next": "C" },\n    "B": { "Type": "Succeed" },\n    "C": { "Type": "Succeed" }\n  }\n}\n';
    expect(importFile("asl", file(machine), "g")).toEqual({
      ok: false,
      problem: {
        message: 'has the key "Next" twice in one object (at /States/A/Next): JSON readers disagree on which value counts',
        line: 4,
        column: 41,
        hint: "give each key of an object once in the state machine",
      },
    });
    expect(importFile("langgraph", file('{"nodes": [], "edges": [], "nodes": [{"id": "\\u001b[2J"}]}'), "g")).toMatchObject({ ok: false, problem: { line: 1, column: 28 } });
    const hostile = importFile("autogen", file('{"nodes": {"a\\u001b[2J": {}, "a\\u001b[2J": {}}}'), "g");
    expect(hostile).toMatchObject({ ok: false, problem: { message: 'has the key "a\\u001b[2J" twice in one object (at /nodes/a\\u001b[2J): JSON readers disagree on which value counts' } });
  });

  it("holds the fan-out checks to a budget bounded by the graph, then writes the rest as plain edges, marked", () => {
    // One node with 1,500 fan-outs (one per condition), which a peer enters: each check walks all
    // its edges before the one that does not fit.
    const n = 1500;
    const nodes: Record<string, unknown> = { p: { name: "p", edges: [{ target: "f" }] } };
    const edges = Array.from({ length: 2 * n }, (_, i) => ({ target: `t${i}`, condition: `c${i >> 1}` }));
    nodes["f"] = { name: "f", edges };
    for (let i = 0; i < 2 * n; i++) nodes[`t${i}`] = { name: `t${i}`, edges: [] };
    const result = importFile("autogen", file(JSON.stringify({ nodes, default_start_node: "p" })), "g");
    if (!result.ok) throw new Error(result.problem.message);
    const seam = toSeam(result.graph);
    if (!seam.ok) throw new Error(seam.message);
    const text = seam.output.text;
    expect(text).toContain("  // seam-guess fan-out -- AutoGen GraphFlow runs t0, t1 at once from f; written as plain edges: only a supervisor fans out, and if f were one, p -> f would hand a whole task to a supervisor\n");
    expect(text).toContain(`  // seam-guess fan-out -- AutoGen GraphFlow runs t${2 * n - 2}, t${2 * n - 1} at once from f; written as plain edges: the graph has more fan-outs than seam import checks\n`);
    expect(text).not.toContain("fan_out");
  });

  it("names the place of a shape error", () => {
    expect(importFile("langgraph", file('{"nodes": [{"id": "a"}], "edges": [{"source": "a", "target": "b"}]}'), "g")).toEqual({
      ok: false,
      problem: {
        message: 'edges[0].target should be the id of a node, not "b"',
        hint: "give the JSON of graph.get_graph().to_json() (Python) or graph.getGraph().toJSON() (JavaScript)",
      },
    });
    expect(importFile("autogen", file('{"nodes": []}'), "g")).toMatchObject({ ok: false, problem: { message: "nodes should be an object" } });
    expect(importFile("openai-agents", file('{"seam_dump": "other"}'), "g")).toMatchObject({ ok: false, problem: { message: 'seam_dump should be "openai-agents/1"' } });
  });

  it("refuses a chain of Choice states that never reaches a working state, after a bounded walk", () => {
    const states: Record<string, unknown> = { Start: { Type: "Pass", Next: "C0" } };
    for (let i = 0; i < 100; i++) states[`C${i}`] = { Type: "Choice", Choices: [], Default: `C${(i + 1) % 100}` };
    const result = importFile("asl", file(JSON.stringify({ StartAt: "Start", States: states })), "g");
    expect(result).toMatchObject({ ok: false, problem: { message: expect.stringContaining("within 64 Choice states") } });
  });

  it("follows a loop of Choice states once, noting it, and keeps the routes out of it", () => {
    const states = {
      Start: { Type: "Task", Resource: "r", Next: "Check" },
      Check: { Type: "Choice", Choices: [{ Variable: "$.a", BooleanEquals: true, Next: "Work" }], Default: "Check2" },
      Check2: { Type: "Choice", Choices: [{ Variable: "$.b", BooleanEquals: true, Next: "Check" }], Default: "Work" },
      Work: { Type: "Task", Resource: "r", End: true },
    };
    const result = importFile("asl", file(JSON.stringify({ StartAt: "Start", States: states })), "g");
    if (!result.ok) throw new Error(result.problem.message);
    expect(result.graph.notes).toEqual(['the loop of Choice states "Check" -> "Check2" -> "Check", with no working state in it']);
    expect(result.graph.edges.map((e) => `${e.from}->${e.to}`)).toEqual(["Start->Work", "Start->Work"]);
  });

  it("refuses a working state with both Next and End, as Step Functions does", () => {
    const states = { Start: { Type: "Task", Resource: "r", Next: "Work", End: true }, Work: { Type: "Task", Resource: "r", End: true } };
    expect(importFile("asl", file(JSON.stringify({ StartAt: "Start", States: states })), "g")).toMatchObject({
      ok: false,
      problem: { message: "States.Start should be a state with Next or End: true, not both" },
    });
    const fine = importFile("asl", file(JSON.stringify({ StartAt: "Start", States: { ...states, Start: { Type: "Task", Resource: "r", Next: "Work" } } })), "g");
    expect(fine.ok).toBe(true);
  });

  it("refuses Parallel states nested past the bound", () => {
    let machine: Record<string, unknown> = { StartAt: "W", States: { W: { Type: "Task", End: true } } };
    for (let i = 0; i < 70; i++) machine = { StartAt: `P${i}`, States: { [`P${i}`]: { Type: "Parallel", Branches: [machine], End: true } } };
    expect(importFile("asl", file(JSON.stringify(machine)), "g")).toMatchObject({ ok: false, problem: { message: expect.stringContaining("at most 64 Parallel states deep") } });
  });

  it("maps names that are not identifiers, and escapes what it quotes in comments and strings", () => {
    const json = JSON.stringify({
      StartAt: "Check\u202e claim",
      States: {
        "Check\u202e claim": { Type: "Task", Next: "Fail\nnow" },
        "Fail\nnow": { Type: "Fail", Cause: 'bad "cause"\u0007\u2028 end' },
      },
    });
    const result = importFile("asl", file(json), "g");
    if (!result.ok) throw new Error(result.problem.message);
    const seam = toSeam(result.graph);
    if (!seam.ok) throw new Error(seam.message);
    const text = seam.output.text;
    expect(text).toContain('// named "Check\\u202e claim" in the source\n');
    expect(text).toContain("agent Check_claim: peer");
    expect(text).toContain('terminal Fail_now failed "bad \\"cause\\"\\u0007\\u2028 end"');
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e\u2028]/);
    expect(seam.output.decided.renamed).toEqual([{ source: "Check\u202e claim", name: "Check_claim" }]);
    expect(checkText("g.seam", text).diagnostics.filter((d) => d.rule !== "import-guess")).toEqual([]);
  });

  it("imports a long chain and many colliding names without deep recursion", () => {
    const n = 5000;
    const nodes = [{ id: "__start__" }, ...Array.from({ length: n }, (_, i) => ({ id: `step ${i}` })), { id: "__end__" }];
    const edges = [
      { source: "__start__", target: "step 0" },
      ...Array.from({ length: n - 1 }, (_, i) => ({ source: `step ${i}`, target: `step ${i + 1}` })),
      { source: `step ${n - 1}`, target: "step 0" },
      { source: `step ${n - 1}`, target: "__end__" },
    ];
    const result = importFile("langgraph", file(JSON.stringify({ nodes, edges })), "chain");
    if (!result.ok) throw new Error(result.problem.message);
    const seam = toSeam(result.graph);
    if (!seam.ok) throw new Error(seam.message);
    expect(seam.output.decided.agents).toHaveLength(n);
    expect(seam.output.decided.edges.filter((e) => e.maxRounds !== undefined).map((e) => `${e.from}->${e.to}`)).toEqual([`step_${n - 1}->step_0`]);
    const names = Array.from({ length: 3000 }, (_, i) => `a${" ".repeat(i + 1)}b`);
    const colliding = importFile("autogen", file(JSON.stringify({ nodes: Object.fromEntries(names.map((name) => [name, { name, edges: [] }])) })), "c");
    if (!colliding.ok) throw new Error(colliding.problem.message);
    const decided = toSeam(colliding.graph);
    if (!decided.ok) throw new Error(decided.message);
    expect(decided.output.decided.agents.map((agent) => agent.name).slice(0, 3)).toEqual(["a_b", "a_b_2", "a_b_3"]);
    expect(decided.output.decided.agents[2999]?.name).toBe("a_b_3000");
  });

  it("refuses a graph without agents", () => {
    const result = importFile("langgraph", file('{"nodes": [{"id": "__start__"}, {"id": "__end__"}], "edges": [{"source": "__start__", "target": "__end__"}]}'), "g");
    if (!result.ok) throw new Error(result.problem.message);
    expect(toSeam(result.graph)).toEqual({ ok: false, message: "LangGraph gives no agents", hint: "give a graph with at least one agent" });
  });

  it("gives the line and column of a YAML error, refuses duplicate keys and alias bombs", async () => {
    const tasks = createSourceFile("tasks.yaml", "t:\n  agent: a\n");
    const crew = (text: string) => importCrewAi({ agents: createSourceFile("agents.yaml", text), tasks, process: "sequential", manager: "manager" }, "c");
    expect(await crew("a:\n  role: x\n  goal: [unclosed\n")).toMatchObject({ ok: false, file: { path: "agents.yaml" }, problem: { line: 4, message: expect.stringMatching(/^is not valid YAML: /) } });
    expect(await crew("a:\n  role: x\na:\n  role: y\n")).toMatchObject({ ok: false, problem: { line: 3, column: 1, message: expect.stringContaining("unique") } });
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]", "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]", "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]", "d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]"].join("\n");
    expect(await crew(bomb)).toMatchObject({ ok: false, problem: { message: expect.stringMatching(/^cannot be read: /) } });
  });
});
