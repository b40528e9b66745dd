/**
 * The server mid-edit, on what the recovering parser keeps of a half-written declaration, and
 * with Unicode names (identifiers are ID_Start / ID_Continue, as in JavaScript).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UNCHECKED_DELEGATE_HOVER } from "./fixtures.js";
import { startLspClient, type LspClient } from "./lsp-client.js";

let client: LspClient;
const uri = "file:///work/graphs/typing.seam";
const text = "graph g {\n  entry lead\n  agent lead: supervisor { terminal done }\n  agent café: worker\n  delegate lead -> \n}\n";
beforeAll(async () => {
  client = await startLspClient();
  await client.open(uri, text);
});
afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

const at = (line: number, character: number) => ({ textDocument: { uri }, position: { line, character } });
const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });

describe("seam lsp while an edge is being typed", () => {
  it("reports the syntax error where the target is missing", async () => {
    const { diagnostics } = await client.change(uri, text, 2);
    expect(diagnostics).toEqual([
      {
        range: range(5, 0, 1),
        severity: 1,
        code: "syntax",
        codeDescription: { href: new URL("../../docs/rules/syntax.md", import.meta.url).href },
        source: "seam",
        message: "expected a name after '->', found '}'",
      },
    ]);
  });

  it("hovers the half-written edge with what it has", async () => {
    expect(await client.request("textDocument/hover", at(4, 4))).toEqual({
      contents: {
        kind: "markdown",
        value: [
          "**delegate** `lead -> …`",
          "",
          ...UNCHECKED_DELEGATE_HOVER,
        ].join("\n"),
      },
      range: range(4, 2, 15),
    });
  });

  it("goes to the declaration of the edge's source and completes its target with Unicode names", async () => {
    expect(await client.request("textDocument/definition", at(4, 12))).toEqual([{ uri, range: range(2, 8, 12) }]);
    const items = await client.request<{ label: string; detail?: string }[]>("textDocument/completion", at(4, 19));
    // Not lead itself: it is the edge's source.
    expect(items.map(({ label, detail }) => ({ label, detail }))).toEqual([{ label: "café", detail: "worker" }]);
  });

  it("renames to a Unicode name and still refuses a keyword", async () => {
    expect(await client.request("textDocument/rename", { ...at(3, 8), newName: "crème" })).toEqual({
      changes: { [uri]: [{ range: range(3, 8, 12), newText: "crème" }] },
    });
    await expect(client.request("textDocument/rename", { ...at(3, 8), newName: "peer" })).rejects.toMatchObject({
      message: "'peer' is a keyword of Seam and cannot name an agent",
    });
  });
});
