import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture } from "./fixtures.js";
import { startLspClient, type LspClient } from "./lsp-client.js";

let client: LspClient;
const faulty = fixture("faulty.seam");
const twoGraphs = {
  uri: "file:///work/graphs/two.seam",
  text: "graph one {\n  entry a\n  agent a: peer { terminal t }\n}\ngraph two {\n  entry a\n  agent a: peer { terminal t }\n  agent b: peer\n}\n",
};
beforeAll(async () => {
  client = await startLspClient();
  await client.open(faulty.uri, faulty.text);
  await client.open(twoGraphs.uri, twoGraphs.text);
});
afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });
const at = (uri: string, line: number, character: number) => ({ textDocument: { uri }, position: { line, character } });

describe("seam lsp: definition, references, rename", () => {
  it("goes from a use of an agent to its declaration", async () => {
    expect(await client.request("textDocument/definition", at(faulty.uri, 7, 10))).toEqual([{ uri: faulty.uri, range: range(5, 8, 14) }]);
  });

  it("finds no definition for an undeclared agent or off any name", async () => {
    expect(await client.request("textDocument/definition", at(faulty.uri, 6, 32))).toEqual([]);
    expect(await client.request("textDocument/definition", at(faulty.uri, 3, 3))).toEqual([]);
  });

  it("lists references with and without the declaration", async () => {
    const params = (includeDeclaration: boolean) => ({ ...at(faulty.uri, 3, 8), context: { includeDeclaration } });
    expect(await client.request("textDocument/references", params(true))).toEqual([
      { uri: faulty.uri, range: range(3, 8, 12) },
      { uri: faulty.uri, range: range(4, 8, 12) },
      { uri: faulty.uri, range: range(6, 22, 26) },
      { uri: faulty.uri, range: range(7, 19, 23) },
    ]);
    expect(await client.request("textDocument/references", params(false))).toEqual([
      { uri: faulty.uri, range: range(3, 8, 12) },
      { uri: faulty.uri, range: range(6, 22, 26) },
      { uri: faulty.uri, range: range(7, 19, 23) },
    ]);
  });

  it("keeps agents of different graphs apart", async () => {
    const params = { ...at(twoGraphs.uri, 5, 8), context: { includeDeclaration: true } };
    expect(await client.request("textDocument/references", params)).toEqual([
      { uri: twoGraphs.uri, range: range(5, 8, 9) },
      { uri: twoGraphs.uri, range: range(6, 8, 9) },
    ]);
  });

  it("prepares a rename on a name only", async () => {
    expect(await client.request("textDocument/prepareRename", at(faulty.uri, 6, 24))).toEqual({ range: range(6, 22, 26), placeholder: "boss" });
    expect(await client.request("textDocument/prepareRename", at(faulty.uri, 3, 3))).toBeNull();
  });

  it("renames an agent everywhere in its graph", async () => {
    expect(await client.request("textDocument/rename", { ...at(faulty.uri, 7, 10), newName: "author" })).toEqual({
      changes: {
        [faulty.uri]: [
          { range: range(5, 8, 14), newText: "author" },
          { range: range(7, 9, 15), newText: "author" },
        ],
      },
    });
  });

  it("renames a graph", async () => {
    expect(await client.request("textDocument/rename", { ...at(twoGraphs.uri, 0, 7), newName: "first" })).toEqual({
      changes: { [twoGraphs.uri]: [{ range: range(0, 6, 9), newText: "first" }] },
    });
  });

  it("refuses keywords, invalid names and names already taken", async () => {
    const refusal = async (uri: string, line: number, character: number, newName: string) => {
      try {
        await client.request("textDocument/rename", { ...at(uri, line, character), newName });
      } catch (error) {
        const { code, message } = error as { code: number; message: string };
        return { code, message };
      }
      throw new Error("the rename was not refused");
    };
    expect(await refusal(faulty.uri, 7, 10, "agent")).toEqual({ code: -32602, message: "'agent' is a keyword of Seam and cannot name an agent" });
    expect(await refusal(faulty.uri, 7, 10, "2nd writer")).toEqual({
      code: -32602,
      message: "'2nd writer' is not a valid name: start with a letter or '_', then letters, digits, '_' or '-'",
    });
    expect(await refusal(faulty.uri, 7, 10, "boss")).toEqual({ code: -32602, message: "graph 'support' already has an agent named 'boss'; pick another name" });
    // An invisible character (Default_Ignorable_Code_Point) would make a second `boss` that looks
    // like the first: refused, named by code point, and not printed raw.
    const invisible = (name: string, code: string) => ({
      code: -32602,
      message: `'${name}' is not a valid name: ${code} is invisible, and a name cannot hold it (two names that look the same would differ); remove it`,
    });
    expect(await refusal(faulty.uri, 7, 10, "boss\ufe00")).toEqual(invisible("boss\ufffd", "U+FE00"));
    expect(await refusal(faulty.uri, 7, 10, "x\u034fy")).toEqual(invisible("x\ufffdy", "U+034F"));
    expect(await refusal(faulty.uri, 7, 10, "lead\u{E0100}")).toEqual(invisible("lead\ufffd", "U+E0100"));
    expect(await refusal(faulty.uri, 7, 10, "\u3164")).toEqual(invisible("\ufffd", "U+3164"));
    expect(await refusal(faulty.uri, 7, 10, "a\u200db")).toEqual(invisible("a\ufffdb", "U+200D"));
    expect(await refusal(twoGraphs.uri, 0, 7, "two")).toEqual({ code: -32602, message: "the file already has a graph named 'two'; pick another name" });
    expect(await refusal(twoGraphs.uri, 0, 7, "graph")).toEqual({ code: -32602, message: "'graph' is a keyword of Seam and cannot name a graph" });
  });

  it("renames to a name beyond ASCII that holds no invisible character", async () => {
    for (const newName of ["caf\u00e9", "\u56f3\u8868", "a-b"]) {
      const edit = (await client.request("textDocument/rename", { ...at(twoGraphs.uri, 7, 8), newName })) as { changes: Record<string, { newText: string }[]> };
      expect(edit.changes[twoGraphs.uri]?.map((e) => e.newText)).toEqual([newName]);
    }
  });

  it("allows renaming an agent to a name used only in another graph", async () => {
    expect(await client.request("textDocument/rename", { ...at(twoGraphs.uri, 2, 8), newName: "b" })).toEqual({
      changes: {
        [twoGraphs.uri]: [
          { range: range(1, 8, 9), newText: "b" },
          { range: range(2, 8, 9), newText: "b" },
        ],
      },
    });
  });
});
