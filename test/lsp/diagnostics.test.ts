import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture } from "./fixtures.js";
import { startLspClient, type LspClient } from "./lsp-client.js";

let client: LspClient;
/** The rule's page shipped with this checkout, as diagnostics link it (`codeDescription`). */
const ruleDoc = (id: string) => new URL(`../../docs/rules/${id}.md`, import.meta.url).href;
beforeAll(async () => {
  client = await startLspClient();
});
afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

const faultyDiagnostics = [
  {
    range: { start: { line: 5, character: 8 }, end: { line: 5, character: 14 } },
    severity: 2,
    code: "unreachable-agent",
    codeDescription: { href: ruleDoc("unreachable-agent") },
    source: "seam",
    message: "agent 'writer' is never reached from the entry 'boss': add an edge to it, make it an entry, or remove it.",
  },
  {
    // Line 7 holds `é` (1 UTF-16 unit) and `🎉` (2 units) before the name: character 30, not 29 or 33.
    range: { start: { line: 6, character: 30 }, end: { line: 6, character: 36 } },
    severity: 1,
    code: "unknown-agent",
    codeDescription: { href: ruleDoc("unknown-agent") },
    source: "seam",
    message: "unknown agent 'wirter' in delegate boss -> wirter: did you mean 'writer'?",
  },
  {
    range: { start: { line: 7, character: 2 }, end: { line: 7, character: 23 } },
    severity: 1,
    code: "role-mismatch",
    codeDescription: { href: ruleDoc("role-mismatch") },
    source: "seam",
    message:
      "return writer -> boss: 'boss' never delegates to 'writer', so there is nothing to return; add `delegate boss -> writer` or use transfer.",
  },
]

describe("seam lsp: diagnostics", () => {
  it("announces its capabilities and name", () => {
    expect(client.initializeResult).toEqual({
      capabilities: {
        positionEncoding: "utf-16",
        textDocumentSync: { openClose: true, change: 2 },
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        completionProvider: { triggerCharacters: [".", ":", ">", ","] },
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        codeActionProvider: { codeActionKinds: ["quickfix"] },
        semanticTokensProvider: {
          legend: {
            tokenTypes: ["namespace", "class", "enumMember", "property", "keyword", "string", "number", "operator"],
            tokenModifiers: ["declaration"],
          },
          full: true,
        },
        documentFormattingProvider: true,
      },
      serverInfo: { name: "seam", version: JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version },
    });
  });

  it("publishes the rules' diagnostics on open, with UTF-16 ranges on a line with non-ASCII text", async () => {
    const { uri, text } = fixture("faulty.seam");
    expect(await client.open(uri, text)).toEqual({ uri, version: 1, diagnostics: faultyDiagnostics });
  });

  it("re-checks as the text changes, and clears the diagnostics when the typo is fixed", async () => {
    const { uri, text } = fixture("faulty.seam");
    const fixed = text.replace("wirter", "writer");
    expect(await client.change(uri, fixed, 2)).toEqual({ uri, version: 2, diagnostics: [] });
    expect(await client.change(uri, text, 3)).toEqual({ uri, version: 3, diagnostics: faultyDiagnostics });
  });

  it("applies incremental changes", async () => {
    const { uri } = fixture("faulty.seam");
    const published = client.nextDiagnostics(uri, (p) => p.version === 4);
    await client.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: 4 },
      contentChanges: [{ range: { start: { line: 6, character: 30 }, end: { line: 6, character: 36 } }, text: "writer" }],
    });
    expect(await published).toEqual({ uri, version: 4, diagnostics: [] });
  });

  it("sends related information in the same document", async () => {
    const { uri, text } = fixture("cycle.seam");
    const { diagnostics } = await client.open(uri, text);
    expect(diagnostics).toEqual([
      {
        range: { start: { line: 2, character: 6 }, end: { line: 2, character: 11 } },
        severity: 1,
        code: "hop-limit-unbounded",
        codeDescription: { href: ruleDoc("hop-limit-unbounded") },
        source: "seam",
        message:
          "the hop limit of graph 'cycle' (auto, as no hop_limit is declared) cannot be computed: no edge of the cycle a -> b -> a (transfer a -> b, transfer b -> a) has max_rounds, so walks have no longest length. Add `max_rounds N` to one of those edges, or declare an explicit `hop_limit N`.",
      },
      {
        range: { start: { line: 6, character: 2 }, end: { line: 6, character: 17 } },
        severity: 2,
        code: "unbounded-cycle",
        codeDescription: { href: ruleDoc("unbounded-cycle") },
        source: "seam",
        message:
          "unbounded cycle a -> b -> a (transfer a -> b, transfer b -> a): none of its 2 edges has max_rounds, so a task may circle it forever; add `max_rounds N` to one of them (e.g. `transfer a -> b { max_rounds 2 }`).",
        relatedInformation: [
          { location: { uri, range: { start: { line: 7, character: 2 }, end: { line: 7, character: 17 } } }, message: "transfer b -> a is on the same cycle" },
        ],
      },
    ]);
  });

  it("publishes an empty list for a clean example", async () => {
    const text = readFileSync(new URL("../../examples/customer-service.seam", import.meta.url), "utf8");
    const uri = "file:///work/graphs/customer-service.seam";
    expect(await client.open(uri, text)).toEqual({ uri, version: 1, diagnostics: [] });
  });

  it("clears a document's diagnostics when it is closed", async () => {
    const { uri } = fixture("faulty.seam");
    const published = client.nextDiagnostics(uri);
    await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
    expect(await published).toEqual({ uri, diagnostics: [] });
  });
});
