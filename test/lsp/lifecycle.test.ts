import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CONTENT_BYTES } from "../../src/lsp/framing-guard.js";
import { startLspClient, type LspClient } from "./lsp-client.js";

let client: LspClient;
beforeAll(async () => {
  client = await startLspClient();
});
afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

/** Runs `seam lsp --stdio` on `input` (its whole input, then closed): its exit code and stderr; killed after 10 s. */
async function runServer(input: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL("../../bin/seam.js", import.meta.url)), "lsp", "--stdio"], {
    stdio: ["pipe", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  child.stdin.end(input);
  const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, "SIGKILL"), 10_000);
  const code = await exited;
  clearTimeout(timer);
  return { code, stderr };
}

describe("seam lsp: lifecycle", () => {
  it("answers requests about a document that is not open with nothing", async () => {
    const textDocument = { uri: "file:///work/graphs/never-opened.seam" };
    const position = { line: 0, character: 0 };
    expect(await client.request("textDocument/hover", { textDocument, position })).toBeNull();
    expect(await client.request("textDocument/completion", { textDocument, position })).toEqual([]);
    expect(await client.request("textDocument/documentSymbol", { textDocument })).toEqual([]);
    expect(await client.request("textDocument/semanticTokens/full", { textDocument })).toEqual({ data: [] });
  });

  it("exits when its input closes without a shutdown (the editor went away)", async () => {
    const child = spawn(process.execPath, [fileURLToPath(new URL("../../bin/seam.js", import.meta.url)), "lsp", "--stdio"], {
      stdio: ["pipe", "ignore", "ignore"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.stdin.end();
    const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, "SIGKILL"), 10_000);
    expect(await exited).toBe(0);
    clearTimeout(timer);
  });

  it("exits 0 without a word when a client writes a change, shutdown and exit at once and closes its input", async () => {
    const frame = (message: object): string => {
      const body = JSON.stringify({ jsonrpc: "2.0", ...message });
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const text = "graph g {\n  entry a\n  agent a: peer { terminal t }\n}\n";
    const input = [
      frame({ id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } }),
      frame({ method: "initialized", params: {} }),
      frame({ method: "textDocument/didOpen", params: { textDocument: { uri: "file:///work/g.seam", languageId: "seam", version: 1, text } } }),
      frame({ id: 2, method: "shutdown" }),
      frame({ method: "exit" }),
    ].join("");
    // The diagnostics of the open came due after the connection closed: no one to send them to.
    expect(await runServer(input)).toEqual({ code: 0, stderr: "" });
  });

  it.each([
    ["a length of a terabyte", "Content-Length: 1000000000000\r\n\r\n{}", `a message's Content-Length of 1000000000000 bytes is over the limit of ${MAX_CONTENT_BYTES}`],
    ["an end of input inside a message", 'Content-Length: 100\r\n\r\n{"a"', "the input ended inside a message"],
  ])("exits 2 with one line on stderr after %s, instead of waiting for ever", async (_what, input, problem) => {
    expect(await runServer(input)).toEqual({
      code: 2,
      stderr: `seam lsp: ${problem} (frame each message as LSP's base protocol says: a Content-Length header, an empty line, the content)\n`,
    });
  });
});
