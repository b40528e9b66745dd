/**
 * The VS Code extension builds into a .vsix that holds the manifest (language id, file
 * association, grammar, settings), the language configuration, the repository's TextMate grammar
 * and the bundled client that starts `seam lsp`. Its packages (vsce, the client) are its own
 * install, kept out of the root one: `.ci/run` runs `npm ci --prefix editors/vscode`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { readZip } from "./zip.js";

const extension = fileURLToPath(new URL("../../editors/vscode/", import.meta.url));
const installed = existsSync(join(extension, "node_modules", "@vscode", "vsce"));
const work = mkdtempSync(join(tmpdir(), "seam-vsix-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(!installed)("the VS Code extension (skipped until `npm ci --prefix editors/vscode`)", () => {
  it("packages into a .vsix with the manifest, grammar, language configuration and client", { timeout: 120_000 }, () => {
    const vsix = join(work, "seam.vsix");
    execFileSync(process.execPath, [join(extension, "scripts", "package.mjs"), "--out", vsix], { cwd: extension, stdio: "pipe" });
    const entries = readZip(readFileSync(vsix));
    expect([...entries.keys()].sort()).toEqual([
      "[Content_Types].xml",
      "extension.vsixmanifest",
      "extension/LICENSE.txt",
      "extension/dist/extension.js",
      "extension/language-configuration.json",
      "extension/package.json",
      "extension/readme.md",
      "extension/syntaxes/seam.tmLanguage.json",
    ]);
    const text = (name: string) => (entries.get(name) as Buffer).toString("utf8");
    expect(text("extension/syntaxes/seam.tmLanguage.json")).toBe(readFileSync(new URL("../../grammar/seam.tmLanguage.json", import.meta.url), "utf8"));
    const manifest = JSON.parse(text("extension/package.json"));
    expect(manifest.main).toBe("./dist/extension.js");
    expect(manifest.contributes.languages).toEqual([
      { id: "seam", aliases: ["Seam", "seam"], extensions: [".seam"], configuration: "./language-configuration.json" },
    ]);
    expect(manifest.contributes.grammars).toEqual([{ language: "seam", scopeName: "source.seam", path: "./syntaxes/seam.tmLanguage.json" }]);
    expect(Object.keys(manifest.contributes.configuration.properties)).toEqual(["seam.server.path"]);
    const configuration = JSON.parse(text("extension/language-configuration.json"));
    expect(configuration.comments).toEqual({ lineComment: "//", blockComment: ["/*", "*/"] });
    // The bundle carries the client and the command it starts; `vscode` stays external.
    const bundle = text("extension/dist/extension.js");
    expect(bundle).toContain('require("vscode")');
    expect(bundle).toContain('"lsp","--stdio"');
    expect(bundle).toContain('"node_modules",".bin"');
    expect(bundle).toContain("textDocument/publishDiagnostics");
  });
});
