#!/usr/bin/env node
// CommonJS (bin/package.json): a CommonJS entry starts faster than an ES module, and it loads the
// `seam check` bundle with a synchronous `require`.
"use strict";
const { statSync } = require("node:fs");
const { enableCompileCache } = require("node:module");
const { join } = require("node:path");
const { pathToFileURL } = require("node:url");

// Node 22.1+ can keep compiled code between runs, which shortens every start; Node 20 has no
// such cache and skips this. The CLI is loaded afterwards so that it benefits.
enableCompileCache?.();

// `npm run build` writes the CLI three ways: dist/cli (tsc, one file per module), and
// dist/cli-bundle (esbuild, scripts/build-cli.mjs): main.js with one chunk per lazy part, and
// check.cjs, `seam check` in one CommonJS file. A bundle is used when it is at least as new as
// the tsc output; a tsc-only rebuild (the test setup's) leaves it older, and then the tsc output
// runs rather than stale code.
const at = (path) => join(__dirname, path);
const mtime = (path) => statSync(at(path), { throwIfNoEntry: false })?.mtimeMs ?? -Infinity;
const modules = "../dist/cli/main.js";
const checkBundle = "../dist/cli-bundle/check.cjs";
const bundle = "../dist/cli-bundle/main.js";
const built = mtime(modules);
if (process.argv[2] === "check" && mtime(checkBundle) >= built) {
  void require("./check-bundle.js").loadCheckBundle(at(checkBundle)).exports.main();
} else {
  void import(pathToFileURL(at(mtime(bundle) >= built ? bundle : modules)).href).then(({ main }) => main());
}
