/**
 * The language server's carried checks (a check reused across an edit that leaves the tokens as
 * they were) against fresh ones, over stdio: one document takes a long run of random edits, sent
 * as full texts or as incremental changes, and after each the diagnostics published for it must
 * equal those published for the same text opened afresh under another URI.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLspClient, type LspClient } from "./lsp-client.js";

let client: LspClient;
beforeAll(async () => {
  client = await startLspClient();
});
afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

const base = [
  "seam 1",
  "graph g {",
  "  entry lead",
  '  agent lead: supervisor { terminal done complete "done \\"now\\" é" }',
  "  // seam-disable-next-line unreachable-agent -- later",
  '  agent spare: worker { terminal t complete "t" }',
  "  /* a block",
  "     comment */ agent other: worker // seam-guess role -- why",
  "  delegate lead -> nobody",
  "}",
  "",
];
const texts = [base.join("\n"), base.join("\r\n"), base.join("\r")];

/** The LSP position (UTF-16 units; CRLF, LF and CR end lines) of `offset` in `text`. */
function position(text: string, offset: number): { line: number; character: number } {
  let line = 0;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    const c = text[i];
    if (c === "\r" && text[i + 1] === "\n" && i + 1 < offset) continue;
    if (c === "\r" || c === "\n") (line++, (start = i + 1));
  }
  return { line, character: offset - start };
}

const pieces = fc.constantFrom(" ", "\t", "\n", "\r", "\r\n", "x", "é", "\u2028", '"', "\\", "*/", "/*", "//", "seam-disable-next-line unreachable-agent -- r", "seam-guess role");
const step = fc.record({ where: fc.nat(), removed: fc.nat(2), inserted: fc.array(pieces, { maxLength: 2 }), incremental: fc.boolean() });

describe("seam lsp carries checks across edits as a fresh check has them", () => {
  it("re-reads a suppression when a space typed between CR and LF makes one line break two", async () => {
    const uri = "file:///tmp/crlf-split.seam";
    const text = texts[1] as string;
    const unreachable = (p: { diagnostics: { code?: unknown }[] }) => p.diagnostics.filter((d) => d.code === "unreachable-agent").length;
    const before = unreachable(await client.open(uri, text));
    const split = text.replace("-- later\r\n", "-- later\r \n");
    expect(split).not.toBe(text);
    expect(unreachable(await client.change(uri, split, 2))).toBe(before + 1);
    expect(unreachable(await client.change(uri, text, 3))).toBe(before);
  });

  it("publishes after every edit of a long random run what a fresh open of that text publishes", async () => {
    const samples = fc.sample(fc.tuple(fc.nat(texts.length - 1), fc.array(step, { minLength: 30, maxLength: 30 })), { numRuns: 6, seed: 11 });
    let edits = 0;
    let fresh = 0;
    for (const [run, [which, steps]] of samples.entries()) {
      const uri = `file:///tmp/carried-${run}.seam`;
      let text = texts[which] as string;
      await client.open(uri, text);
      let version = 1;
      for (const s of steps) {
        // An edit that does not split a CRLF pair (an LSP position cannot name the offset between them).
        let at = s.where % (text.length + 1);
        if (text[at - 1] === "\r" && text[at] === "\n") at++;
        let end = Math.min(text.length, at + s.removed);
        if (text[end - 1] === "\r" && text[end] === "\n") end++;
        const inserted = s.inserted.join("");
        const next = text.slice(0, at) + inserted + text.slice(end);
        version++;
        const published = client.nextDiagnostics(uri, (p) => p.version === version);
        const change = s.incremental ? { range: { start: position(text, at), end: position(text, end) }, text: inserted } : { text: next };
        await client.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [change] });
        const carried = await published;
        text = next;
        const other = `file:///tmp/fresh-${fresh++}.seam`;
        const opened = await client.open(other, text);
        await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri: other } });
        expect(JSON.parse(JSON.stringify(carried.diagnostics).replaceAll(uri, "URI"))).toEqual(JSON.parse(JSON.stringify(opened.diagnostics).replaceAll(other, "URI")));
        edits++;
      }
    }
    expect(edits).toBe(180);
  }, 120_000);
});
