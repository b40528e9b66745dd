/**
 * The compiled build of the Python runtime (docs/python.md, "The compiled build"): the wheel
 * `node scripts/python-compiled.mjs` builds with mypyc, unpacked into .tmp/python-compiled/site.
 * It compiles the ingest path and leaves interpreted the modules that check their own arguments,
 * and passes the package's pytest suite. `.ci/run` builds it (and runs the Python suites of
 * `npm test` against it a second time); without it these tests skip with one line, and under
 * CI=true a skip is a failure. When the build is there, it is brought up to date first (the script
 * keeps a build whose sources have not changed).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../emit/helpers.js";

const python = join(projectRoot, ".venv", "bin", "python");
const site = join(projectRoot, ".tmp", "python-compiled", "site");
const BUILD = "npm run build:python-compiled";
const ready = existsSync(python) && existsSync(site);
if (!ready) {
  if (process.env["CI"] === "true") throw new Error(`the compiled Python runtime is missing: ${BUILD}`);
  console.log(`skipped: needs the compiled Python runtime in .tmp/python-compiled (${BUILD})`);
}

/** Runs the .venv interpreter with the compiled build first on its path. */
function compiledPython(args: readonly string[], cwd: string) {
  return spawnSync(python, args, { cwd, encoding: "utf8", env: { ...process.env, PYTHONPATH: site, PYTHONDONTWRITEBYTECODE: "1" } });
}

describe.skipIf(!ready)("the compiled Python runtime", () => {
  it("is built from the package's current sources", () => {
    const result = spawnSync(process.execPath, [join(projectRoot, "scripts", "python-compiled.mjs")], { encoding: "utf8" });
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  }, 600_000);

  it("compiles the ingest path and leaves interpreted the entry points that check their own arguments", () => {
    const modules = ["_accept", "_envelope_check", "_stores", "checks.duplicate", "envelopes.v1_4", "builders", "parse", "_lease", "codegen", "redis_store"];
    const script = [
      "import importlib, importlib.machinery, json, sys",
      "suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)",
      "print(json.dumps({name: importlib.import_module('seam_handoff.' + name).__file__.endswith(suffixes) for name in sys.argv[1:]}))",
    ].join("\n");
    const result = compiledPython(["-c", script, ...modules], projectRoot);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      _accept: true,
      _envelope_check: true,
      _stores: true,
      "checks.duplicate": true,
      "envelopes.v1_4": true,
      builders: false,
      parse: false,
      _lease: false,
      codegen: false,
      redis_store: false,
    });
  });

  it("passes the package's pytest suite", () => {
    const result = compiledPython(["-m", "pytest", "-q", "-p", "no:cacheprovider"], join(projectRoot, "python"));
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/\d+ passed/);
  }, 120_000);
});
