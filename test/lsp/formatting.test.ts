import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLspClient, type LspClient } from "./lsp-client.js";

let client: LspClient;
beforeAll(async () => {
  client = await startLspClient();
});
afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

const format = async (name: string, text: string) => {
  const uri = `file:///work/graphs/${name}.seam`;
  await client.open(uri, text);
  return client.request("textDocument/formatting", { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
};

describe("seam lsp: formatting (seam fmt's layout)", () => {
  it("replaces the whole text with the canonical layout, comments kept", async () => {
    const text = "seam 1\ngraph g{entry a // first\n agent a: peer {terminal t}\n\n\n  agent b:peer\n  transfer a->b\n}\n";
    expect(await format("unformatted", text)).toEqual([
      {
        range: { start: { line: 0, character: 0 }, end: { line: 8, character: 0 } },
        newText: "seam 1\n\ngraph g {\n  entry a // first\n  agent a: peer { terminal t }\n\n  agent b: peer\n  transfer a -> b\n}\n",
      },
    ]);
  });

  it("changes nothing in a formatted file or in one with syntax errors", async () => {
    expect(await format("formatted", "seam 1\n\ngraph g {\n  entry a\n  agent a: peer { terminal t }\n}\n")).toEqual([]);
    expect(await format("broken", "graph g{agent a:\n}\n")).toEqual([]);
  });
});
