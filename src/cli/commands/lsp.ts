/**
 * `seam lsp [--stdio]`: the language server, speaking LSP 3.17 JSON-RPC on stdin and stdout
 * (the only transport; `--stdio` is accepted because editors pass it). Nothing else may write to
 * stdout while it runs: logs go to the client's log through the connection.
 */
import { createConnection, StreamMessageReader } from "vscode-languageserver/node";
import { createFramingGuard } from "../../lsp/framing-guard.js";
import { FramedMessageWriter } from "../../lsp/message-writer.js";
import { startServer } from "../../lsp/server.js";
import { packageVersion } from "../../core/package-files.js";

/**
 * Starts the server on the process's stdin and stdout; it runs until the client sends `exit` or
 * closes stdin. Input whose framing is broken (src/lsp/framing-guard.ts) ends it with one line on
 * stderr and exit code 2: nothing after the fault can be read as a message.
 */
export function lspCommand(): void {
  const input = createFramingGuard((problem) => {
    process.stderr.write(`seam lsp: ${problem} (frame each message as LSP's base protocol says: a Content-Length header, an empty line, the content)\n`);
    process.exit(2);
  });
  process.stdin.pipe(input);
  const connection = createConnection(new StreamMessageReader(input), new FramedMessageWriter(process.stdout));
  startServer(connection, packageVersion());
}
