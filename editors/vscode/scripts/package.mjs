// Builds the Seam VS Code extension into a .vsix: type-checks src/, bundles src/extension.ts with
// vscode-languageclient into dist/extension.js (one CommonJS file, `vscode` left to the editor),
// copies the TextMate grammar from the repository's grammar/ and its LICENSE, then runs
// `vsce package`. TypeScript and esbuild come from the repository's root install (run `npm ci`
// there first); vsce and the client from this folder's own (`npm ci --prefix editors/vscode`).
//
// Usage: node scripts/package.mjs [--out <file.vsix>]   (default: seam-vscode-<version>.vsix here)
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL("..", import.meta.url));
const root = join(here, "..", "..");
const require = createRequire(import.meta.url);
const run = (script, args) => execFileSync(process.execPath, [script, ...args], { cwd: here, stdio: "inherit" });

const outIndex = process.argv.indexOf("--out");
const manifest = JSON.parse(readFileSync(join(here, "package.json"), "utf8"));
const out = outIndex >= 0 ? process.argv[outIndex + 1] : join(here, `${manifest.name}-${manifest.version}.vsix`);
if (!out) {
  process.stderr.write("package.mjs: --out needs a file name, e.g. --out seam.vsix\n");
  process.exit(2);
}

run(require.resolve("typescript/bin/tsc"), ["-p", "tsconfig.json"]);

rmSync(join(here, "dist"), { recursive: true, force: true });
const { build } = await import(require.resolve("esbuild"));
await build({
  entryPoints: [join(here, "src", "extension.ts")],
  outfile: join(here, "dist", "extension.js"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["vscode"],
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});

mkdirSync(join(here, "syntaxes"), { recursive: true });
copyFileSync(join(root, "grammar", "seam.tmLanguage.json"), join(here, "syntaxes", "seam.tmLanguage.json"));
copyFileSync(join(root, "LICENSE"), join(here, "LICENSE"));

run(join(here, "node_modules", "@vscode", "vsce", "vsce"), ["package", "--no-dependencies", "--allow-missing-repository", "--out", out]);
