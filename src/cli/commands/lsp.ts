/**
 * `seam lsp [--stdio]`: the language server, speaking LSP 3.17 JSON-RPC on stdin and stdout
 * (the only transport; `--stdio` is accepted because editors pass it). Nothing else may write to
 * stdout while it runs: logs go to the client's log through the connection.
 */
import { createConnection, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver/node";
import { startServer } from "../../lsp/server.js";
import { packageVersion } from "../../core/package-files.js";

/** Starts the server on the process's stdin and stdout; it runs until the client sends `exit` or closes stdin. */
export function lspCommand(): void {
  const connection = createConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
  startServer(connection, packageVersion());
}
