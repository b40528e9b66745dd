import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture } from "./fixtures.js";
import { startLspClient, type LspClient } from "./lsp-client.js";

let client: LspClient;
const team = fixture("team.seam");
beforeAll(async () => {
  client = await startLspClient();
  await client.open(team.uri, team.text);
});
afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

const range = (startLine: number, start: number, endLine: number, end: number) => ({
  start: { line: startLine, character: start },
  end: { line: endLine, character: end },
});
const textDocument = { uri: team.uri };

describe("seam lsp: document symbols and folding", () => {
  it("outlines each graph with its settings, agents (and terminals), contracts and edges", async () => {
    expect(await client.request("textDocument/documentSymbol", { textDocument })).toEqual([
      {
        name: "team",
        detail: "graph",
        kind: 3,
        range: range(3, 0, 24, 1),
        selectionRange: range(3, 6, 3, 10),
        children: [
          { name: "entry", detail: "lead", kind: 7, range: range(4, 2, 4, 12), selectionRange: range(4, 2, 4, 12) },
          { name: "hop_limit", detail: "6", kind: 7, range: range(5, 2, 5, 13), selectionRange: range(5, 2, 5, 13) },
          {
            name: "loop_signature",
            detail: "goal.statement, decisions[].statement",
            kind: 7,
            range: range(6, 2, 6, 54),
            selectionRange: range(6, 2, 6, 54),
          },
          {
            name: "lead",
            detail: "supervisor",
            kind: 5,
            range: range(8, 2, 12, 3),
            selectionRange: range(8, 8, 8, 12),
            children: [
              { name: "shipped", detail: "complete", kind: 22, range: range(10, 4, 10, 63), selectionRange: range(10, 13, 10, 20) },
              { name: "dropped", detail: "failed", kind: 22, range: range(11, 4, 11, 27), selectionRange: range(11, 13, 11, 20) },
            ],
          },
          { name: "coder", detail: "worker", kind: 5, range: range(13, 2, 13, 21), selectionRange: range(13, 8, 13, 13), children: [] },
          { name: "contract delegate", detail: "", kind: 11, range: range(15, 2, 17, 3), selectionRange: range(15, 11, 15, 19) },
          { name: "lead -> coder", detail: "delegate", kind: 12, range: range(19, 2, 22, 3), selectionRange: range(19, 11, 19, 24) },
          { name: "coder -> lead", detail: "return", kind: 12, range: range(23, 2, 23, 22), selectionRange: range(23, 9, 23, 22) },
        ],
      },
    ]);
  });

  it("folds every block that spans lines, keeping its closing line visible", async () => {
    expect(await client.request("textDocument/foldingRange", { textDocument })).toEqual([
      { startLine: 3, endLine: 23 },
      { startLine: 8, endLine: 11 },
      { startLine: 15, endLine: 16 },
      { startLine: 19, endLine: 21 },
    ]);
  });

  it("folds block comments over several lines and runs of line comments, not a lone or trailing one", async () => {
    const uri = "file:///work/graphs/comments.seam";
    const text = "/* one\n   two */\n// a\n// b\n// c\nseam 1 // trailing\n// lone\n\ngraph g {}\n";
    await client.open(uri, text);
    expect(await client.request("textDocument/foldingRange", { textDocument: { uri } })).toEqual([
      { startLine: 0, endLine: 1, kind: "comment" },
      { startLine: 2, endLine: 4, kind: "comment" },
    ]);
  });
});
