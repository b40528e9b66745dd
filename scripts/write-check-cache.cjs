// Writes dist/cli-bundle/check.cjs.cache (see bin/check-bundle.js): runs `seam check` from the
// bundle, compiled afresh, on the arguments given (build-cli.mjs passes `check examples`, its
// output discarded), then saves the bytecode V8 made for it.
// usage: node scripts/write-check-cache.cjs check <paths...>
"use strict";
const { join } = require("node:path");
const { loadCheckBundle, writeCodeCache } = require("../bin/check-bundle.js");

const file = join(__dirname, "..", "dist", "cli-bundle", "check.cjs");
const { exports: bundle, script } = loadCheckBundle(file, { useCache: false });
void bundle.main().then(() => writeCodeCache(file, script));
