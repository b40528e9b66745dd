/**
 * `seam lsp` under malformed or hostile traffic: notifications whose params do not have their
 * protocol shape, a document over the size limit `seam check` holds files to, and a check that
 * throws. None of them may end the server or cost the other documents their diagnostics.
 */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConnection, StreamMessageReader as ServerReader } from "vscode-languageserver/node";
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type NotificationMessage,
  type PublishDiagnosticsParams,
  type RequestMessage,
} from "vscode-languageserver-protocol/node";
import { MAX_SOURCE_BYTES } from "../../src/core/source-limit.js";
import { createFrontEnd } from "../../src/lsp/front-end.js";
import { FramedMessageWriter as ServerWriter } from "../../src/lsp/message-writer.js";
import { startServer } from "../../src/lsp/server.js";
import { startLspClient, type LspClient } from "./lsp-client.js";

const GOOD = "seam 1\n\ngraph g {\n  envelope 1.3\n  entry a\n\n  agent a: worker { terminal done complete \"done\" }\n}\n";
/** One finding: `b` is never reached. */
const ONE_FINDING = GOOD.replace("\n}\n", "\n  agent b: worker { terminal done complete \"done\" }\n}\n");

let client: LspClient;
const logged: string[] = [];
beforeAll(async () => {
  client = await startLspClient();
  client.connection.onNotification("window/logMessage", (params: { message: string }) => void logged.push(params.message));
});
afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

/** Waits until the server has handled everything sent before (requests are answered in order). */
async function settle(): Promise<void> {
  await client.request("textDocument/documentSymbol", { textDocument: { uri: "file:///never-opened.seam" } });
}

describe("seam lsp: malformed document notifications are dropped, and the server stays up", () => {
  const malformed: [what: string, method: string, params: unknown, logLine: string][] = [
    ["didOpen with text null", "textDocument/didOpen", { textDocument: { uri: "file:///n.seam", languageId: "seam", version: 1, text: null } }, "textDocument/didOpen notification: textDocument.text is not a string"],
    ["didOpen with a number as text", "textDocument/didOpen", { textDocument: { uri: "file:///n.seam", languageId: "seam", version: 1, text: 42 } }, "textDocument/didOpen notification: textDocument.text is not a string"],
    ["didOpen with uri null", "textDocument/didOpen", { textDocument: { uri: null, languageId: "seam", version: 1, text: GOOD } }, "textDocument/didOpen notification: textDocument.uri is not a non-empty string"],
    ["didOpen without a textDocument", "textDocument/didOpen", {}, "textDocument/didOpen notification: textDocument is not an object"],
    ["didOpen with a fractional version", "textDocument/didOpen", { textDocument: { uri: "file:///n.seam", languageId: "seam", version: 1.5, text: GOOD } }, "textDocument/didOpen notification: textDocument.version is not a whole number"],
    ["didChange with contentChanges null", "textDocument/didChange", { textDocument: { uri: "file:///open.seam", version: 2 }, contentChanges: null }, "textDocument/didChange notification: contentChanges is not an array"],
    ["didChange with text null", "textDocument/didChange", { textDocument: { uri: "file:///open.seam", version: 2 }, contentChanges: [{ text: null }] }, "textDocument/didChange notification: contentChanges[0].text is not a string"],
    ["didChange with a broken range", "textDocument/didChange", { textDocument: { uri: "file:///open.seam", version: 2 }, contentChanges: [{ range: { start: { line: -1, character: 0 } }, text: "x" }] }, "textDocument/didChange notification: contentChanges[0].range is not a range"],
    ["didChange without a version", "textDocument/didChange", { textDocument: { uri: "file:///open.seam" }, contentChanges: [{ text: "x" }] }, "textDocument/didChange notification: textDocument.version is not a whole number"],
    ["didClose with uri 5", "textDocument/didClose", { textDocument: { uri: 5 } }, "textDocument/didClose notification: textDocument.uri is not a non-empty string"],
  ];

  it.each(malformed)("%s: dropped and logged; the open document keeps its diagnostics", async (_what, method, params, logLine) => {
    const uri = "file:///open.seam";
    expect((await client.open(uri, ONE_FINDING)).diagnostics.map((d) => d.code)).toEqual(["unreachable-agent"]);
    logged.length = 0;
    await client.connection.sendNotification(method, params);
    await settle();
    expect(logged).toEqual([`seam: ignored a ${logLine}`]);
    expect(client.process.exitCode).toBeNull();
    // The document is still open, at its version, and still checked.
    const after = await client.change(uri, GOOD, 3);
    expect(after.diagnostics).toEqual([]);
    expect(await client.request("textDocument/documentSymbol", { textDocument: { uri } })).toHaveLength(1);
    await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri } });
    await settle();
  });

  it("a well-formed open of the same kind is analysed, and nothing is logged", async () => {
    logged.length = 0;
    const published = await client.open("file:///fine.seam", ONE_FINDING);
    expect(published.diagnostics.map((d) => d.code)).toEqual(["unreachable-agent"]);
    expect(logged).toEqual([]);
  });
});

describe("seam lsp: a request whose params do not have their protocol shape is answered InvalidParams", () => {
  const uri = "file:///open-for-requests.seam";
  const malformed: [method: string, params: unknown, message: string][] = [
    ["textDocument/hover", { textDocument: { uri } }, "textDocument/hover: position is not a position (a whole-number line and character)"],
    ["textDocument/definition", { textDocument: { uri }, position: { line: "1", character: 0 } }, "textDocument/definition: position is not a position (a whole-number line and character)"],
    ["textDocument/references", { textDocument: { uri }, position: { line: 0, character: 0 } }, "textDocument/references: context.includeDeclaration is not a boolean"],
    ["textDocument/rename", { textDocument: { uri }, position: { line: 0, character: 0 }, newName: 5 }, "textDocument/rename: newName is not a string"],
    ["textDocument/completion", { textDocument: { uri: 7 }, position: { line: 0, character: 0 } }, "textDocument/completion: textDocument.uri is not a non-empty string"],
    ["textDocument/codeAction", { textDocument: { uri }, context: { diagnostics: [] } }, "textDocument/codeAction: range is not a range (start and end positions)"],
    ["textDocument/documentSymbol", {}, "textDocument/documentSymbol: textDocument is not an object"],
  ];

  it.each(malformed)("%s", async (method, params, message) => {
    await client.open(uri, ONE_FINDING);
    await expect(client.request(method, params)).rejects.toMatchObject({ code: -32602, message });
    expect(client.process.exitCode).toBeNull();
    // Well-formed, the same request is answered.
    expect(await client.request("textDocument/documentSymbol", { textDocument: { uri } })).toHaveLength(1);
  });
});

describe("seam lsp: a document over the size limit is not analysed", () => {
  const uri = "file:///large.seam";
  /** `GOOD` padded with comment lines to exactly `bytes` bytes. */
  const padded = (bytes: number): string => {
    const line = `// ${"x".repeat(96)}\n`;
    const body = line.repeat(Math.floor((bytes - GOOD.length) / line.length));
    return GOOD + body + "/".repeat(bytes - GOOD.length - body.length);
  };

  it("one byte over: a file-too-large diagnostic, no outline, no formatting edit", async () => {
    const published = await client.open(uri, padded(MAX_SOURCE_BYTES + 1));
    expect(published.diagnostics).toEqual([
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: 1,
        code: "file-too-large",
        codeDescription: { href: expect.stringMatching(/docs\/rules\/file-too-large\.md$/) },
        source: "seam",
        message: `this document is ${MAX_SOURCE_BYTES + 1} bytes, over the limit of ${MAX_SOURCE_BYTES} bytes that Seam checks, so it is not analysed (split the graphs into smaller files)`,
      },
    ]);
    expect(await client.request("textDocument/documentSymbol", { textDocument: { uri } })).toEqual([]);
    expect(await client.request("textDocument/formatting", { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } })).toEqual([]);
    expect(await client.request("textDocument/semanticTokens/full", { textDocument: { uri } })).toEqual({ data: [] });
  });

  it("at the limit, and after the text shrinks again, it is analysed as seam check would", async () => {
    const atLimit = await client.change(uri, padded(MAX_SOURCE_BYTES), 2);
    expect(atLimit.diagnostics).toEqual([]);
    const small = await client.change(uri, ONE_FINDING, 3);
    expect(small.diagnostics.map((d) => d.code)).toEqual(["unreachable-agent"]);
  });
});

describe("seam lsp: a check that throws is an internal-error diagnostic, not an exit", () => {
  // The same server code, in this process, with a front end that crashes on one document.
  let connection: ReturnType<typeof createProtocolConnection>;
  const published: PublishDiagnosticsParams[] = [];
  beforeAll(async () => {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    const frontEnd = createFrontEnd();
    const server = createConnection(new ServerReader(toServer), new ServerWriter(toClient));
    startServer(server, "0.0.0-test", {
      analyse: (path, text) => {
        if (text.includes("CRASH")) throw new TypeError("a bug in a check");
        return frontEnd.analyse(path, text);
      },
      close: (path) => frontEnd.close(path),
    });
    connection = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => void published.push(p));
    connection.listen();
    await connection.sendRequest("initialize", { processId: null, rootUri: null, capabilities: {} });
  });
  afterAll(() => connection.dispose());

  const openAndWait = async (uri: string, text: string): Promise<PublishDiagnosticsParams> => {
    await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "seam", version: 1, text } });
    for (let i = 0; i < 200 && !published.some((p) => p.uri === uri); i++) await new Promise((r) => setTimeout(r, 10));
    return published.find((p) => p.uri === uri) as PublishDiagnosticsParams;
  };

  it("the crashing document gets one internal-error diagnostic at its start", async () => {
    const p = await openAndWait("file:///crash.seam", `${GOOD}// CRASH\n`);
    expect(p.diagnostics).toEqual([
      {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        severity: 1,
        code: "internal-error",
        codeDescription: { href: expect.stringMatching(/docs\/rules\/internal-error\.md$/) },
        source: "seam",
        message: "internal error in the check of this document: a bug in a check. This is a bug in Seam; the other checks still ran.",
      },
    ]);
  });

  it("another document is still checked", async () => {
    const p = await openAndWait("file:///other.seam", ONE_FINDING);
    expect(p.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["unreachable-agent", "agent 'b' is never reached from the entry 'a': add an edge to it, make it an entry, or remove it."],
    ]);
  });
});

describe("seam lsp: a client that sends edits faster than it reads", () => {
  /** Twelve findings (agents b to m are never reached): diagnostics far larger than the client's buffer. */
  const MANY_FINDINGS = GOOD.replace("\n}\n", `\n${[..."bcdefghijklm"].map((id) => `  agent ${id}: worker { terminal done complete "done" }\n`).join("")}}\n`);
  const text = (version: number): string => `${MANY_FINDINGS}// edit ${version}\n`;

  it("gets the first diagnostics, then only the newest version's, and no version between is checked", async () => {
    const toServer = new PassThrough();
    // The client's side holds 1 KiB before it is read: the first diagnostics do not fit.
    const toClient = new PassThrough({ highWaterMark: 1024 });
    const frontEnd = createFrontEnd();
    const analysed: string[] = [];
    const server = createConnection(new ServerReader(toServer), new ServerWriter(toClient));
    startServer(server, "0.0.0-test", {
      analyse: (path, source) => (analysed.push(source), frontEnd.analyse(path, source)),
      close: (path) => frontEnd.close(path),
    });
    const writer = new StreamMessageWriter(toServer);
    const uri = "file:///storm.seam";
    const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));
    const note = (method: string, params: object): NotificationMessage => ({ jsonrpc: "2.0", method, params });
    const initialize: RequestMessage = { jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } };
    await writer.write(initialize);
    await writer.write(note("textDocument/didOpen", { textDocument: { uri, languageId: "seam", version: 1, text: text(1) } }));
    // Each edit waits a turn of the event loop, in which the server would check and publish it.
    for (let version = 2; version <= 50; version++) {
      await writer.write(note("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text: text(version) }] }));
      await turn();
    }
    expect(analysed).toEqual([text(1)]);

    const published: PublishDiagnosticsParams[] = [];
    const connection = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
    connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => void published.push(p));
    connection.listen();
    for (let i = 0; i < 400 && !published.some((p) => p.version === 50); i++) await turn();
    expect(published.map((p) => [p.version, p.diagnostics.length])).toEqual([
      [1, 12],
      [50, 12],
    ]);
    expect(analysed).toEqual([text(1), text(50)]);
    connection.dispose();
    server.dispose();
  });
});

describe("seam lsp: documents are told apart by URI", () => {
  const text = "graph g {\n  entry lead\n  agent lead: supervisor { terminal done }\n}\n";
  const first = "file:///tmp/alias/a.seam";
  // The same file path: %61 is "a".
  const second = "file:///tmp/alias/%61.seam";
  const renameLead = (uri: string, line: number, character: number) =>
    client.request("textDocument/rename", { textDocument: { uri }, position: { line, character }, newName: "chief" });
  const edits = (uri: string, lines: number[], from: number) => ({
    changes: { [uri]: lines.map((line) => ({ range: { start: { line, character: from }, end: { line, character: from + 4 } }, newText: "chief" })) },
  });

  it("two URIs of one file keep their own checks: one's text never moves the other's tree", async () => {
    await client.open(first, text);
    expect(await renameLead(first, 1, 9)).toEqual(edits(first, [1, 2], 8));
    // The second URI's text is the first's after four spaces: read as an edit of the first, its
    // check would be the first's, carried over with every offset moved by four.
    await client.open(second, `    ${text}`);
    expect(await client.request("textDocument/semanticTokens/full", { textDocument: { uri: second } })).toMatchObject({ data: expect.any(Array) });
    expect(await renameLead(first, 1, 9)).toEqual(edits(first, [1, 2], 8));
    expect(await client.request("textDocument/documentSymbol", { textDocument: { uri: first } })).toMatchObject([
      { name: "g", range: { start: { line: 0, character: 0 } } },
    ]);
    expect(await renameLead(second, 1, 9)).toEqual(edits(second, [1, 2], 8));
    // An edit of one, and closing it, leaves the other as it was.
    await client.change(first, `  ${text}`, 2);
    expect(await renameLead(second, 1, 9)).toEqual(edits(second, [1, 2], 8));
    await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri: first } });
    expect(await renameLead(second, 1, 9)).toEqual(edits(second, [1, 2], 8));
    await client.connection.sendNotification("textDocument/didClose", { textDocument: { uri: second } });
    await settle();
  });

  it("a change that keeps the version number (which the protocol forbids) is still checked", async () => {
    const uri = "file:///tmp/same-version.seam";
    expect((await client.open(uri, text)).diagnostics).toEqual([]);
    const published = client.nextDiagnostics(uri, (p) => p.diagnostics.length > 0);
    await client.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: 1 },
      contentChanges: [{ range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } }, text: "  delegate lead -> nobody\n" }],
    });
    expect((await published).diagnostics.map((d) => [d.code, d.range.start.line])).toEqual([["unknown-agent", 3]]);
    expect(await client.request("textDocument/definition", { textDocument: { uri }, position: { line: 3, character: 11 } })).toEqual([
      { uri, range: { start: { line: 2, character: 8 }, end: { line: 2, character: 12 } } },
    ]);
  });
});

describe("seam lsp: after shutdown", () => {
  it("answers every request InvalidRequest, and exit still ends it with code 0", async () => {
    const own = await startLspClient();
    const uri = "file:///tmp/after-shutdown.seam";
    await own.open(uri, GOOD);
    expect(await own.request("shutdown", null)).toBeNull();
    await expect(own.request("textDocument/documentSymbol", { textDocument: { uri } })).rejects.toMatchObject({
      code: -32600,
      message: "textDocument/documentSymbol: the server is shutting down (a shutdown request came), so it answers no more requests",
    });
    expect(await own.stop()).toBe(0);
  });
});
