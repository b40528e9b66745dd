import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLspClient, type LspClient } from "./lsp-client.js";

let client: LspClient;
beforeAll(async () => {
  client = await startLspClient();
});
afterAll(async () => {
  expect(await client.stop()).toBe(0);
});

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
});
