/**
 * The Seam extension for VS Code: starts `seam lsp` (LSP over stdio) for `.seam` files with
 * vscode-languageclient. Which `seam` runs: the workspace's own `node_modules/.bin/seam` (the
 * version the project pins), else the `seam.server.path` setting, else a message saying how to
 * get one.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { window, workspace, type ExtensionContext } from "vscode";
import { LanguageClient, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";

let client: LanguageClient | undefined;

/** Called by VS Code when a `.seam` file is first opened. */
export async function activate(context: ExtensionContext): Promise<void> {
  const command = findSeam();
  if (command === undefined) {
    void window.showErrorMessage(
      "Seam: no `seam` command found. Run `npm install --save-dev seam-handoff` in the workspace, or set `seam.server.path`.",
    );
    return;
  }
  // `.cmd` shims on Windows run only through a shell.
  const shell = process.platform === "win32" && command.endsWith(".cmd");
  const serverOptions: ServerOptions = { command, args: ["lsp", "--stdio"], options: { shell } };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "seam" },
      { scheme: "untitled", language: "seam" },
    ],
  };
  client = new LanguageClient("seam", "Seam", serverOptions, clientOptions);
  context.subscriptions.push(client);
  await client.start();
}

/** Called by VS Code on shutdown: stops the server. */
export async function deactivate(): Promise<void> {
  await client?.stop();
}

/** The `seam` to run: the first workspace folder's `node_modules/.bin/seam`, else the setting. */
function findSeam(): string | undefined {
  const shim = process.platform === "win32" ? "seam.cmd" : "seam";
  const folders = workspace.workspaceFolders ?? [];
  for (const folder of folders) {
    const local = join(folder.uri.fsPath, "node_modules", ".bin", shim);
    if (existsSync(local)) return local;
  }
  const configured = workspace.getConfiguration("seam").get<string>("server.path", "").trim();
  if (configured === "") return undefined;
  if (isAbsolute(configured) || folders[0] === undefined) return configured;
  return join(folders[0].uri.fsPath, configured);
}
