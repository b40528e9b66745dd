/**
 * A real LSP client for the tests: spawns `seam lsp --stdio` (bin/seam.js, the built CLI) and
 * speaks JSON-RPC to it over the child's stdin/stdout with `vscode-languageserver-protocol`.
 * Every wait is bounded; `stop()` asks the server to shut down and exit, and kills it by PID
 * if it does not exit in time.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from "vscode-languageserver-protocol/node";

const bin = fileURLToPath(new URL("../../bin/seam.js", import.meta.url));

/** Longest wait for any one answer or notification, in milliseconds. */
const TIMEOUT_MS = 10_000;

/** A running server and the client connected to it. */
export interface LspClient {
  readonly connection: ProtocolConnection;
  readonly process: ChildProcess;
  /** The `initialize` result. */
  readonly initializeResult: unknown;
  /** Sends a request and waits (bounded) for its answer. */
  request<R>(method: string, params: unknown): Promise<R>;
  /** Opens a document (version 1) and waits for the diagnostics published for it. */
  open(uri: string, text: string): Promise<PublishDiagnosticsParams>;
  /** Replaces the whole text (a new version) and waits for the diagnostics of that version. */
  change(uri: string, text: string, version: number): Promise<PublishDiagnosticsParams>;
  /** Waits for the next diagnostics of `uri` that satisfy `accept`. */
  nextDiagnostics(uri: string, accept?: (p: PublishDiagnosticsParams) => boolean): Promise<PublishDiagnosticsParams>;
  /** Shuts the server down; resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** Starts `seam lsp --stdio` and initializes it. */
export async function startLspClient(): Promise<LspClient> {
  const child = spawn(process.execPath, [bin, "lsp", "--stdio"], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const waiters: { uri: string; accept: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  connection.onNotification("textDocument/publishDiagnostics", (params: PublishDiagnosticsParams) => {
    const index = waiters.findIndex((w) => w.uri === params.uri && w.accept(params));
    if (index >= 0) waiters.splice(index, 1)[0]?.resolve(params);
  });
  connection.listen();
  const bounded = <T>(what: string, promise: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${what} within ${TIMEOUT_MS} ms; server stderr: ${stderr}`)), TIMEOUT_MS);
      promise.then(
        (value) => (clearTimeout(timer), resolve(value)),
        (error: unknown) => (clearTimeout(timer), reject(error)),
      );
    });
  const request = <R>(method: string, params: unknown): Promise<R> => bounded(`answer to ${method}`, connection.sendRequest<R>(method, params));
  const nextDiagnostics = (uri: string, accept: (p: PublishDiagnosticsParams) => boolean = () => true): Promise<PublishDiagnosticsParams> =>
    bounded(`diagnostics for ${uri}`, new Promise((resolve) => waiters.push({ uri, accept, resolve })));

  const initializeResult = await request("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
  await connection.sendNotification("initialized", {});
  return {
    connection,
    process: child,
    initializeResult,
    request,
    nextDiagnostics,
    async open(uri, text) {
      const published = nextDiagnostics(uri, (p) => p.version === 1);
      await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "seam", version: 1, text } });
      return published;
    },
    async change(uri, text, version) {
      const published = nextDiagnostics(uri, (p) => p.version === version);
      await connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
      return published;
    },
    async stop() {
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      try {
        await request("shutdown", null);
        await connection.sendNotification("exit");
      } catch {
        // The server is already gone or stuck: the kill below ends it.
      }
      const timer = setTimeout(() => child.pid !== undefined && process.kill(child.pid, "SIGKILL"), 5_000);
      const code = await exited;
      clearTimeout(timer);
      connection.dispose();
      return code;
    },
  };
}
