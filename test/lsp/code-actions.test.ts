import type { CodeAction, Diagnostic } from "vscode-languageserver-protocol";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture } from "./fixtures.js";
import { startLspClient, type LspClient } from "./lsp-client.js";

let client: LspClient;
const published = new Map<string, Diagnostic[]>();
const faulty = fixture("faulty.seam");
const cycle = fixture("cycle.seam");
const trap = fixture("trap.seam");
beforeAll(async () => {
  client = await startLspClient();
  for (const { uri, text } of [faulty, cycle, trap]) published.set(uri, (await client.open(uri, text)).diagnostics);
});
afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

const point = (line: number, character: number) => ({ start: { line, character }, end: { line, character } });
const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });
const actions = (uri: string, line: number, character: number) =>
  client.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri }, range: point(line, character), context: { diagnostics: [] } });
const diagnostic = (uri: string, code: string) => published.get(uri)?.find((d) => d.code === code);
/** The two suppression fixes every suppressible finding gets: on its line, in the whole file. */
const suppressions = (uri: string, rule: string, line: number, indent: string, eol = "\n") => [
  {
    title: `Suppress '${rule}' on this line (then say why after '--')`,
    kind: "quickfix",
    diagnostics: [diagnostic(uri, rule)],
    edit: { changes: { [uri]: [{ range: point(line, 0), newText: `${indent}// seam-disable-next-line ${rule} -- ${eol}` }] } },
  },
  {
    title: `Suppress '${rule}' in this file (then say why after '--')`,
    kind: "quickfix",
    diagnostics: [diagnostic(uri, rule)],
    edit: { changes: { [uri]: [{ range: point(0, 0), newText: `// seam-disable ${rule} -- ${eol}` }] } },
  },
];

describe("seam lsp: code actions", () => {
  it("takes the 'did you mean' name of an unknown agent", async () => {
    expect(await actions(faulty.uri, 6, 33)).toEqual([
      {
        title: "Change to 'writer'",
        kind: "quickfix",
        diagnostics: [diagnostic(faulty.uri, "unknown-agent")],
        isPreferred: true,
        edit: { changes: { [faulty.uri]: [{ range: range(6, 30, 36), newText: "writer" }] } },
      },
      ...suppressions(faulty.uri, "unknown-agent", 6, "  "),
    ]);
  });

  it("offers no 'did you mean' name that would repeat an edge the graph has", async () => {
    const uri = "file:///work/graphs/repeat.seam";
    const text = faulty.text.replace("  return writer -> boss", "  delegate boss -> writer\n  return writer -> boss");
    published.set(uri, (await client.open(uri, text)).diagnostics);
    expect(diagnostic(uri, "unknown-agent")?.message).toContain("did you mean 'writer'?");
    expect(await actions(uri, 6, 33)).toEqual(suppressions(uri, "unknown-agent", 6, "  "));
  });

  it("takes the 'did you mean' path of an unknown field", async () => {
    const uri = "file:///work/graphs/field.seam";
    const { diagnostics } = await client.open(uri, "graph f {\n  loop_signature goal.statment\n}\n");
    expect(await actions(uri, 1, 20)).toEqual([
      {
        title: "Change to 'goal.statement'",
        kind: "quickfix",
        diagnostics: diagnostics.filter((d) => d.code === "unknown-field"),
        isPreferred: true,
        edit: { changes: { [uri]: [{ range: range(1, 17, 30), newText: "goal.statement" }] } },
      },
      {
        title: "Suppress 'unknown-field' on this line (then say why after '--')",
        kind: "quickfix",
        diagnostics: diagnostics.filter((d) => d.code === "unknown-field"),
        edit: { changes: { [uri]: [{ range: point(1, 0), newText: "  // seam-disable-next-line unknown-field -- \n" }] } },
      },
      {
        title: "Suppress 'unknown-field' in this file (then say why after '--')",
        kind: "quickfix",
        diagnostics: diagnostics.filter((d) => d.code === "unknown-field"),
        edit: { changes: { [uri]: [{ range: point(0, 0), newText: "// seam-disable unknown-field -- \n" }] } },
      },
    ]);
  });

  it("adds max_rounds to any edge of an unbounded cycle: a new block, or a line in the existing one", async () => {
    const fixes = {
      kind: "quickfix",
      diagnostics: [diagnostic(cycle.uri, "unbounded-cycle")],
    };
    expect(await actions(cycle.uri, 6, 4)).toEqual([
      { title: "Add 'max_rounds 2' to transfer a -> b", ...fixes, edit: { changes: { [cycle.uri]: [{ range: point(6, 17), newText: " { max_rounds 2 }" }] } } },
      { title: "Add 'max_rounds 2' to transfer b -> a", ...fixes, edit: { changes: { [cycle.uri]: [{ range: point(7, 19), newText: "\n    max_rounds 2" }] } } },
      ...suppressions(cycle.uri, "unbounded-cycle", 6, "  "),
    ]);
  });

  it("adds the missing statuses to a router's last guard, or makes its last route the default", async () => {
    const uri = "file:///work/graphs/router.seam";
    const text = readFileSync(new URL("../fixtures/guards/router-without-default.seam", import.meta.url), "utf8");
    const gap = (await client.open(uri, text)).diagnostics.find((d) => d.code === "guard-gap");
    expect(gap?.range).toEqual(range(11, 27, 49));
    const fixes = (await actions(uri, 11, 30)).slice(0, 2);
    expect(fixes).toEqual([
      {
        title: "Add waiting_review, failed to the guard of return billing -> review",
        kind: "quickfix",
        diagnostics: [gap],
        isPreferred: true,
        edit: { changes: { [uri]: [{ range: point(11, 49), newText: ", waiting_review, failed" }] } },
      },
      {
        title: "Make return billing -> review the default route (otherwise)",
        kind: "quickfix",
        diagnostics: [gap],
        edit: { changes: { [uri]: [{ range: range(11, 27, 49), newText: "otherwise" }] } },
      },
    ]);
  });

  it("ends the lines it inserts in a CRLF file with CRLF, as the lines around them end", async () => {
    const uri = "file:///work/graphs/cycle-crlf.seam";
    published.set(uri, (await client.open(uri, cycle.text.replace(/\n/g, "\r\n"))).diagnostics);
    const fixes = { kind: "quickfix", diagnostics: [diagnostic(uri, "unbounded-cycle")] };
    expect(await actions(uri, 6, 4)).toEqual([
      { title: "Add 'max_rounds 2' to transfer a -> b", ...fixes, edit: { changes: { [uri]: [{ range: point(6, 17), newText: " { max_rounds 2 }" }] } } },
      { title: "Add 'max_rounds 2' to transfer b -> a", ...fixes, edit: { changes: { [uri]: [{ range: point(7, 19), newText: "\r\n    max_rounds 2" }] } } },
      ...suppressions(uri, "unbounded-cycle", 6, "  ", "\r\n"),
    ]);
  });

  it("adds a terminal to an agent that can never reach one", async () => {
    expect(await actions(trap.uri, 5, 8)).toEqual([
      {
        title: "Add a terminal 'done' to agent 'b'",
        kind: "quickfix",
        diagnostics: [diagnostic(trap.uri, "no-terminal-path")],
        edit: { changes: { [trap.uri]: [{ range: point(5, 17), newText: " { terminal done }" }] } },
      },
      ...suppressions(trap.uri, "no-terminal-path", 5, "  "),
    ]);
  });

  it("offers only the suppressions where a finding has no fix, and nothing where no finding lies", async () => {
    expect(await actions(faulty.uri, 7, 4)).toEqual(suppressions(faulty.uri, "role-mismatch", 7, "  "));
    expect(await actions(faulty.uri, 3, 3)).toEqual([]);
  });

  it("offers no suppression for a syntax error", async () => {
    const uri = "file:///work/graphs/syntax.seam";
    await client.open(uri, "graph s {\n  agent a worker\n}\n");
    expect(await actions(uri, 1, 10)).toEqual([]);
  });

  it("suppresses the finding once the comment is in: the diagnostic goes, and only the missing reason is reported", async () => {
    const { uri, text } = trap;
    const lines = text.split("\n");
    lines.splice(5, 0, "  // seam-disable-next-line no-terminal-path -- ");
    const { diagnostics } = await client.change(uri, lines.join("\n"), 2);
    expect(diagnostics.map((d) => d.code)).toEqual(["suppression-reason", "missing-return"]);
  });
});
