import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, UNCHECKED_DELEGATE_HOVER } from "./fixtures.js";
import { startLspClient, type LspClient } from "./lsp-client.js";

let client: LspClient;
const team = fixture("team.seam");
const faulty = fixture("faulty.seam");
const research = fixture("research.seam");
beforeAll(async () => {
  client = await startLspClient();
  await client.open(team.uri, team.text);
  await client.open(faulty.uri, faulty.text);
  await client.open(research.uri, research.text);
});
afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

const hover = (uri: string, line: number, character: number) =>
  client.request("textDocument/hover", { textDocument: { uri }, position: { line, character } });
const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });

describe("seam lsp: hover", () => {
  it("shows a join agent's wait and a branch's fan-out", async () => {
    expect(await hover(research.uri, 3, 9)).toEqual({
      contents: {
        kind: "markdown",
        value: [
          "**agent** `lead`: supervisor",
          "",
          "Join: waits for all of `sanctions`, `media` within 600 seconds before the task goes on; otherwise the task escalates to a person.",
          "",
          "Terminals:",
          "- `done` (complete)",
          "",
          "Hands off:",
          "- delegate to `sanctions` (max_rounds 1), a branch of fan-out `checks`",
          "- delegate to `media` (max_rounds 1), a branch of fan-out `checks`",
          "",
          "Receives:",
          "- return from `sanctions`",
          "- return from `media`",
        ].join("\n"),
      },
      range: range(3, 8, 12),
    });
    const edge = (await hover(research.uri, 9, 5)) as { contents: { value: string } };
    expect(edge.contents.value.split("\n")[0]).toBe("**delegate** `lead -> sanctions` · max_rounds 1 · fan_out checks");
  });

  it("shows an agent's role, version, terminals (descriptions escaped) and edges", async () => {
    expect(await hover(team.uri, 8, 9)).toEqual({
      contents: {
        kind: "markdown",
        value: [
          "**agent** `lead`: supervisor, version 2.1",
          "",
          "Terminals:",
          "- `shipped` (complete): the \\*release\\* is out \\<b\\>now\\</b\\>",
          "- `dropped` (failed)",
          "",
          "Hands off:",
          "- delegate to `coder` (max_rounds 2)",
          "",
          "Receives:",
          "- return from `coder`",
        ].join("\n"),
      },
      range: range(8, 8, 12),
    });
  });

  it("shows the same agent from a reference to it", async () => {
    const fromReference = (await hover(team.uri, 23, 20)) as { contents: { value: string } };
    expect(fromReference.contents.value.split("\n")[0]).toBe("**agent** `lead`: supervisor, version 2.1");
  });

  it("shows an edge's bound and its required fields with their meaning from the envelope schema", async () => {
    expect(await hover(team.uri, 19, 5)).toEqual({
      contents: {
        kind: "markdown",
        value: [
          "**delegate** `lead -> coder` · max_rounds 2 · observe (violations are warnings)",
          "",
          "Required fields:",
          "- `constraints` (array): Rules the receiver must keep to while working on the task.",
          "- `goal.acceptance_criteria` (array): Checks that tell the receiver when the goal is met; at least one.",
          "- `to_agent.version` (string): The agent's version.",
        ].join("\n"),
      },
      range: range(19, 2, 24),
    });
  });

  it("shows an edge's guard and every setting it has, and explains a setting keyword from the settings table", async () => {
    const uri = "file:///work/graphs/hover-settings.seam";
    const text = [
      "graph g {",
      "  entry lead",
      "  agent lead: supervisor { terminal done }",
      "  agent coder: worker",
      "  delegate lead -> coder { max_rounds 2 repairs 3 }",
      "  return coder -> lead when status is ready, partial { min_confidence 0.8 gate }",
      "  return coder -> lead otherwise",
      "}",
    ].join("\n");
    await client.open(uri, text);
    const head = async (line: number, character: number) => ((await hover(uri, line, character)) as { contents: { value: string } }).contents.value.split("\n")[0];
    expect(await head(4, 5)).toBe("**delegate** `lead -> coder` · max_rounds 2 · repairs 3");
    expect(await head(5, 5)).toBe("**return** `coder -> lead` · when status is ready, partial · unbounded · min_confidence 0.8 · gate");
    expect(await hover(uri, 4, 41)).toEqual({
      contents: { kind: "markdown", value: "**repairs** (edge setting): refusals of one hop sent back to the producer for repair before the next escalates (default 1)" },
      range: range(4, 40, 47),
    });
    expect(await hover(uri, 2, 29)).toEqual({
      contents: { kind: "markdown", value: "**terminal** (agent setting): a way this agent ends the task: complete, failed or escalate" },
      range: range(2, 27, 35),
    });
  });

  it("says when an edge is not part of the checked graph", async () => {
    expect(await hover(faulty.uri, 6, 15)).toEqual({
      contents: {
        kind: "markdown",
        value: [
          "**delegate** `boss -> wirter`",
          "",
          ...UNCHECKED_DELEGATE_HOVER,
        ].join("\n"),
      },
      range: range(6, 13, 36),
    });
  });

  it("shows a graph's size, entries and hop limit", async () => {
    expect(await hover(team.uri, 3, 7)).toEqual({
      contents: {
        kind: "markdown",
        value: "**graph** `team`: 2 agents, 2 edges\n\n- entry: `lead`\n- envelope: 1.3\n- hop limit: 6 (declared), then escalate",
      },
      range: range(3, 6, 10),
    });
  });

  it("explains a field path and a terminal", async () => {
    expect(await hover(team.uri, 6, 38)).toEqual({
      contents: { kind: "markdown", value: "`decisions[].statement` (string): What was decided." },
      range: range(6, 33, 54),
    });
    expect(await hover(team.uri, 10, 14)).toEqual({
      contents: { kind: "markdown", value: "**terminal** `shipped` of agent `lead`: complete\n\nthe \\*release\\* is out \\<b\\>now\\</b\\>" },
      range: range(10, 13, 20),
    });
  });

  it("lists an agent's edges to and from agents the graph lacks", async () => {
    expect(await hover(faulty.uri, 4, 9)).toEqual({
      contents: {
        kind: "markdown",
        value: [
          "**agent** `boss`: supervisor",
          "",
          "Terminals:",
          "- `done` (complete): réglé ✓",
          "",
          "Hands off:",
          "- delegate to `wirter`, which is no agent of the graph",
          "",
          "Receives:",
          "- return from `writer`",
        ].join("\n"),
      },
      range: range(4, 8, 12),
    });
    const writer = (await hover(faulty.uri, 5, 9)) as { contents: { value: string } };
    expect(writer.contents.value.split("\n").slice(-4)).toEqual(["Hands off:", "- return to `boss`", "", "Receives from no one."]);
  });

  it("names an undeclared agent as such", async () => {
    expect(await hover(faulty.uri, 6, 32)).toEqual({
      contents: { kind: "markdown", value: "**agent** `wirter`: not declared in graph `support`" },
      range: range(6, 30, 36),
    });
  });

  it("answers null on keywords, blank space and comments", async () => {
    expect(await hover(team.uri, 4, 3)).toBeNull();
    expect(await hover(team.uri, 7, 0)).toBeNull();
    expect(await hover(team.uri, 2, 5)).toBeNull();
  });
});
