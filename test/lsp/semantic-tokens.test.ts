import type { SemanticTokens } from "vscode-languageserver-protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture } from "./fixtures.js";
import { startLspClient, type LspClient } from "./lsp-client.js";

let client: LspClient;
let legend: { tokenTypes: string[]; tokenModifiers: string[] };
beforeAll(async () => {
  client = await startLspClient();
  legend = (client.initializeResult as { capabilities: { semanticTokensProvider: { legend: typeof legend } } }).capabilities.semanticTokensProvider.legend;
});
afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

/** Decodes LSP's relative five-integer encoding into `line:character text type [modifiers]`. */
async function tokensOf(uri: string, text: string): Promise<string[]> {
  await client.open(uri, text);
  const { data } = await client.request<SemanticTokens>("textDocument/semanticTokens/full", { textDocument: { uri } });
  const lines = text.split(/\r\n|\r|\n/);
  const out: string[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < data.length; i += 5) {
    const [dLine, dChar, length, type, modifiers] = data.slice(i, i + 5) as [number, number, number, number, number];
    line += dLine;
    character = dLine === 0 ? character + dChar : dChar;
    const names = legend.tokenModifiers.filter((_, bit) => (modifiers & (1 << bit)) !== 0);
    out.push(`${line}:${character} ${lines[line]?.slice(character, character + length)} ${legend.tokenTypes[type]}${names.map((n) => ` ${n}`).join("")}`);
  }
  return out;
}

describe("seam lsp: semantic tokens", () => {
  it("marks graphs, agents (declared or used), terminals and field paths, keywords inside paths included", async () => {
    const { uri, text } = fixture("team.seam");
    expect(await tokensOf(uri, text)).toEqual([
      "0:0 seam keyword",
      "0:5 1 number",
      "3:0 graph keyword",
      "3:6 team namespace declaration",
      "4:2 entry keyword",
      "4:8 lead class",
      "5:2 hop_limit keyword",
      "5:12 6 number",
      "6:2 loop_signature keyword",
      "6:17 goal property",
      "6:22 statement property",
      "6:33 decisions property",
      "6:45 statement property",
      "8:2 agent keyword",
      "8:8 lead class declaration",
      "8:14 supervisor keyword",
      "9:4 version keyword",
      '9:12 "2.1" string',
      "10:4 terminal keyword",
      "10:13 shipped enumMember declaration",
      "10:21 complete keyword",
      '10:30 "the *release* is out <b>now</b>" string',
      "11:4 terminal keyword",
      "11:13 dropped enumMember declaration",
      "11:21 failed keyword",
      "13:2 agent keyword",
      "13:8 coder class declaration",
      "13:15 worker keyword",
      "15:2 contract keyword",
      "15:11 delegate keyword",
      "16:4 require keyword",
      "16:12 goal property",
      "16:17 acceptance_criteria property",
      "16:38 constraints property",
      "19:2 delegate keyword",
      "19:11 lead class",
      "19:16 -> operator",
      "19:19 coder class",
      "19:25 observe keyword",
      "20:4 require keyword",
      "20:12 to_agent property",
      "20:21 version property",
      "21:4 max_rounds keyword",
      "21:15 2 number",
      "23:2 return keyword",
      "23:9 coder class",
      "23:15 -> operator",
      "23:18 lead class",
    ]);
  });

  it("counts UTF-16 code units after non-ASCII text on the same line", async () => {
    const tokens = await tokensOf("file:///work/graphs/emoji.seam", 'graph g { agent a: peer { terminal t complete "🎉é" } agent b: peer }\n');
    expect(tokens.slice(-4)).toEqual(['0:46 "🎉é" string', "0:54 agent keyword", "0:60 b class declaration", "0:63 peer keyword"]);
  });
});
