import type { CompletionItem } from "vscode-languageserver-protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listFieldPaths } from "../../src/analysis/field-paths.js";
import { AGENT_SETTINGS, EDGE_SETTINGS } from "../../src/core/settings.js";
import { ENVELOPE_STATUSES } from "../../src/core/envelope-schema.js";
import { withCursor } from "./fixtures.js";
import { startLspClient, type LspClient } from "./lsp-client.js";

let client: LspClient;
let documents = 0;
beforeAll(async () => {
  client = await startLspClient();
});
afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

const graph = (body: string) => `seam 1\n\ngraph g {\n  entry lead\n  agent lead: supervisor { terminal done }\n  agent coder: worker\n${body}\n}\n`;

/** Opens `marked` as a new document and asks for completions where its `‸` stands. */
async function complete(marked: string): Promise<CompletionItem[]> {
  const { text, position } = withCursor(marked);
  const uri = `file:///work/graphs/completion-${++documents}.seam`;
  await client.open(uri, text);
  return client.request<CompletionItem[]>("textDocument/completion", { textDocument: { uri }, position });
}
const GRAPH_STATEMENTS = ["envelope", "entry", "hop_limit", "on_hop_limit", "loop_signature", "agent", "contract", "delegate", "return", "transfer"];
const labels = (items: readonly CompletionItem[]) => items.map((i) => i.label);
const AGENT_ITEMS = AGENT_SETTINGS.map((s) => s.keyword);
const EDGE_ITEMS = EDGE_SETTINGS.map((s) => s.keyword);

describe("seam lsp: completion", () => {
  it("offers the statements of the block: file, graph, agent, edge, contract", async () => {
    expect(labels(await complete("‸"))).toEqual(["seam", "graph"]);
    expect(labels(await complete(graph("  ‸")))).toEqual(GRAPH_STATEMENTS);
    expect(labels(await complete(graph("  agent x: worker {\n    ‸\n  }")))).toEqual(["terminal", "version", "gate", "effect", "join"]);
    expect(labels(await complete(graph("  delegate lead -> coder {\n    ‸\n  }")))).toEqual(["require", "max_rounds", "repairs", "min_confidence", "gate", "fan_out"]);
    expect(labels(await complete(graph("  contract delegate { ‸ }")))).toEqual(["require"]);
  });

  it("offers a join's words from the grammar: the waits, then 'of', then 'within' and 'otherwise'", async () => {
    expect(labels(await complete(graph("  agent x: worker {\n    join ‸\n  }")))).toEqual(["all", "any"]);
    expect(labels(await complete(graph("  agent x: worker {\n    join all ‸\n  }")))).toEqual(["of"]);
    expect(labels(await complete(graph("  agent x: worker {\n    join 2 of a, b ‸\n  }")))).toEqual(expect.arrayContaining(["within", "otherwise"]));
  });

  it("replaces the word being typed, and keeps a fixed order", async () => {
    const edit = (newText: string) => ({ range: { start: { line: 6, character: 20 }, end: { line: 6, character: 23 } }, newText });
    expect(await complete(graph("  agent x: worker { ter‸ }"))).toEqual(
      AGENT_SETTINGS.map((s, i) => ({ label: s.keyword, kind: 14, sortText: `000${i}`, textEdit: edit(s.keyword), detail: s.summary })),
    );
  });

  it("offers the graph's agents (with their roles) after entry, an edge kind and the arrow, not the edge's source after the arrow", async () => {
    const agents = [
      { label: "lead", kind: 7, sortText: "0000", detail: "supervisor" },
      { label: "coder", kind: 7, sortText: "0001", detail: "worker" },
    ];
    const plain = (items: CompletionItem[]) => items.map(({ label, kind, sortText, detail }) => ({ label, kind, sortText, detail }));
    expect(plain(await complete(graph("  entry lead, ‸")))).toEqual(agents);
    expect(plain(await complete(graph("  delegate ‸")))).toEqual(agents);
    expect(plain(await complete(graph("  delegate lead -> c‸")))).toEqual([{ ...agents[1], sortText: "0000" }]);
    expect(plain(await complete(graph("  return coder -> ‸")))).toEqual([agents[0]]);
  });

  it("offers observe and the next statements after a whole edge header", async () => {
    expect(labels(await complete(graph("  delegate lead -> coder ‸")))).toEqual(["otherwise", "when", "observe", ...GRAPH_STATEMENTS]);
  });

  it("offers every setting keyword of the settings table, repairs included, with its summary", async () => {
    const items = await complete(graph("  delegate lead -> coder { ‸ }"));
    expect(items.map((i) => [i.label, i.detail])).toEqual(EDGE_SETTINGS.map((s) => [s.keyword, s.summary]));
    expect(labels(await complete(graph("  delegate lead -> coder { max_rounds 2 ‸ }")))).toEqual(EDGE_ITEMS);
    expect(labels(await complete(graph("  agent x: worker { version \"1.0.0\" ‸ }")))).toEqual(AGENT_ITEMS);
  });

  it("offers guard subjects after when and and, the statuses after status is, and and after a condition", async () => {
    const subjects = ["status", "allowed_next_step", "confidence"];
    expect(labels(await complete(graph("  return coder -> lead when ‸")))).toEqual(subjects);
    expect(labels(await complete(graph("  return coder -> lead when status is ready and ‸")))).toEqual(subjects);
    expect(labels(await complete(graph("  return coder -> lead when status is ‸")))).toEqual([...ENVELOPE_STATUSES]);
    expect(labels(await complete(graph("  return coder -> lead when status is ready, ‸")))).toEqual([...ENVELOPE_STATUSES]);
    expect(labels(await complete(graph("  return coder -> lead when status is ready ‸")))).toEqual(["and", "observe", ...GRAPH_STATEMENTS]);
    expect(labels(await complete(graph("  return coder -> lead otherwise ‸")))).toEqual(["observe", ...GRAPH_STATEMENTS]);
    expect(await complete(graph("  return coder -> lead when allowed_next_step is ‸"))).toEqual([]);
  });

  it("after a line the parser could not read, offers the statements of the block", async () => {
    expect(labels(await complete(graph("  delegate lead -> coder { max_rounds x\n ‸ }")))).toEqual(EDGE_ITEMS);
  });

  it("offers envelope field paths in require and loop_signature, continuing the path typed so far", async () => {
    const goal = await complete(graph("  delegate lead -> coder { require goal.‸ }"));
    expect(goal).toEqual([
      {
        label: "goal.statement",
        kind: 5,
        sortText: "0000",
        textEdit: { range: { start: { line: 6, character: 35 }, end: { line: 6, character: 40 } }, newText: "goal.statement" },
        detail: "string",
        documentation: "The goal in one or two sentences.",
      },
      {
        label: "goal.acceptance_criteria",
        kind: 5,
        sortText: "0001",
        textEdit: { range: { start: { line: 6, character: 35 }, end: { line: 6, character: 40 } }, newText: "goal.acceptance_criteria" },
        detail: "array",
        documentation: "Checks that tell the receiver when the goal is met; at least one.",
      },
      {
        label: "goal.acceptance_criteria[]",
        kind: 5,
        sortText: "0002",
        textEdit: { range: { start: { line: 6, character: 35 }, end: { line: 6, character: 40 } }, newText: "goal.acceptance_criteria[]" },
        detail: "string",
      },
      {
        label: "goal.out_of_scope",
        kind: 5,
        sortText: "0003",
        textEdit: { range: { start: { line: 6, character: 35 }, end: { line: 6, character: 40 } }, newText: "goal.out_of_scope" },
        detail: "array",
        documentation: "What the receiver must not do for this task.",
      },
      {
        label: "goal.out_of_scope[]",
        kind: 5,
        sortText: "0004",
        textEdit: { range: { start: { line: 6, character: 35 }, end: { line: 6, character: 40 } }, newText: "goal.out_of_scope[]" },
        detail: "string",
      },
    ]);
    expect(labels(await complete(graph("  loop_signature goal.statement, decisions[].r‸")))).toEqual([
      "decisions[].id",
      "decisions[].statement",
      "decisions[].rationale",
      "decisions[].confidence",
      "decisions[].reversible",
      "decisions[].evidence",
      "decisions[].evidence[]",
    ]);
    const all = labels(await complete(graph("  contract return { require ‸ }")));
    expect(all.slice(0, 4)).toEqual(["envelope_version", "handoff_id", "task_id", "hop"]);
    expect(all).toEqual(listFieldPaths());
  });

  it("offers roles, outcomes, edge kinds and setting values where they go", async () => {
    expect(labels(await complete(graph("  agent x: ‸")))).toEqual(["supervisor", "worker", "peer"]);
    expect(labels(await complete(graph("  agent x: worker { terminal stop ‸ }")))).toEqual(["complete", "failed", "escalate", ...AGENT_ITEMS]);
    expect(labels(await complete(graph("  contract ‸")))).toEqual(["delegate", "return", "transfer"]);
    expect(labels(await complete(graph("  hop_limit ‸")))).toEqual(["auto"]);
    expect(labels(await complete(graph("  on_hop_limit ‸")))).toEqual(["escalate", "failed"]);
  });

  it("stays quiet where a new name is typed, in comments and in strings", async () => {
    expect(await complete(graph("  agent ‸"))).toEqual([]);
    expect(await complete(graph("  agent x: worker { terminal ‸ }"))).toEqual([]);
    expect(await complete("graph ‸")).toEqual([]);
    expect(await complete(graph("  // entry ‸"))).toEqual([]);
    expect(await complete(graph('  agent x: worker { terminal t complete "entry ‸" }'))).toEqual([]);
  });
});
