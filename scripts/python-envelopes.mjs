// Writes the Python runtime's envelope modules, python/src/seam_handoff/envelopes/v<major>_<minor>.py
// (one per envelope version: its validator, free-text check and TypedDicts, which every generated
// graph module imports), from the built generator in dist/; run by `npm run build` after tsc.
// They are committed, so `pip install ./python` works without a build; test/emit/python/
// envelope-module.test.ts holds them equal to what this script writes.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const { emitPythonEnvelopeModule, envelopeModuleName, envelopeVersions, emitPythonEnvelopePackage } = await import(
  new URL("../dist/emit/python/envelope-module.js", import.meta.url).href
);
const folder = join(root, "python", "src", "seam_handoff", "envelopes");
mkdirSync(folder, { recursive: true });
const wanted = new Set(["__init__.py"]);
writeFileSync(join(folder, "__init__.py"), emitPythonEnvelopePackage());
for (const version of envelopeVersions()) {
  const name = `${envelopeModuleName(version)}.py`;
  wanted.add(name);
  writeFileSync(join(folder, name), emitPythonEnvelopeModule(version));
}
// A version no longer spoken leaves no stale module behind.
for (const name of readdirSync(folder)) if (name.endsWith(".py") && !wanted.has(name)) rmSync(join(folder, name));
