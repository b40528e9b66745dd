// Loads dist/cli-bundle/check.cjs (`seam check` in one CommonJS file) with V8's code cache:
// check.cjs.cache, written by the build (scripts/write-check-cache.cjs) after a check of the
// examples, holds the bytecode of every function that check ran, so a start compiles almost
// nothing. Node 20 has no compile cache of its own (module.enableCompileCache is 22.1+).
"use strict";
const { readFileSync, renameSync, statSync, writeFileSync } = require("node:fs");
const { createRequire, wrap } = require("node:module");
const { dirname } = require("node:path");
const vm = require("node:vm");

/**
 * Runs the CommonJS file at `file` as `require` would and returns `{ exports, script }`. Its code
 * cache (`file` + `.cache`) is used when it is at least as new as the file (a rebuilt bundle
 * makes it stale: V8 itself compares only the source's length) and when `useCache` is not
 * false; V8 rejects a cache made by another V8 version or with other flags, and then compiles
 * as usual.
 */
function loadCheckBundle(file, { useCache = true } = {}) {
  const source = readFileSync(file, "utf8");
  const cache = useCache ? statSync(`${file}.cache`, { throwIfNoEntry: false }) : undefined;
  const cachedData = cache !== undefined && cache.mtimeMs >= statSync(file).mtimeMs ? readFileSync(`${file}.cache`) : undefined;
  const script = new vm.Script(wrap(source), {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData }),
    // `import()` inside the bundle (the other commands, from the tsc output) as in any module.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const loaded = { exports: {} };
  script.runInThisContext()(loaded.exports, createRequire(file), loaded, file, dirname(file));
  return { exports: loaded.exports, script };
}

/** Writes the code cache of `script` (loaded from `file`) next to it, replacing any older one whole. */
function writeCodeCache(file, script) {
  const temporary = `${file}.cache.${process.pid}`;
  writeFileSync(temporary, script.createCachedData());
  renameSync(temporary, `${file}.cache`);
}

module.exports = { loadCheckBundle, writeCodeCache };
