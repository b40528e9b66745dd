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
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, projectRoot, removeTempDirs } from "../emit/helpers.js";

afterAll(() => removeTempDirs());

const python = join(projectRoot, ".venv", "bin", "python");
const site = join(projectRoot, ".tmp", "python-compiled", "site");
const BUILD = "npm run build:python-compiled";
const ready = existsSync(python) && existsSync(site);
if (!ready) {
  if (process.env["CI"] === "true") throw new Error(`the compiled Python runtime is missing: ${BUILD}`);
  console.log(`skipped: needs the compiled Python runtime in .tmp/python-compiled (${BUILD})`);
}

/** Runs scripts/python-compiled.mjs with `args`. */
function buildScript(args: readonly string[]) {
  return spawnSync(process.execPath, [join(projectRoot, "scripts", "python-compiled.mjs"), ...args], { encoding: "utf8" });
}

describe("scripts/python-compiled.mjs", () => {
  it("refuses an unknown option with its usage, exit 2", () => {
    const result = buildScript(["--pyhton", "x"]);
    expect([result.status, result.stdout, result.stderr]).toEqual([
      2,
      "",
      "python-compiled: Unknown option '--pyhton'; usage: node scripts/python-compiled.mjs [--python <interpreter>] [--out <dir>]\n",
    ]);
  });

  it.skipIf(!existsSync(python))("never empties a folder it did not make, exit 2", () => {
    const dir = makeTempDir("py-compiled-out");
    writeFileSync(join(dir, "notes.txt"), "mine");
    const result = buildScript(["--out", dir]);
    expect([result.status, result.stdout, result.stderr]).toEqual([2, "", `python-compiled: ${dir} holds files this script did not write: pass --out a new or empty folder\n`]);
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
  });
});

/** Runs the .venv interpreter with the compiled build first on its path. */
function compiledPython(args: readonly string[], cwd: string) {
  return spawnSync(python, args, { cwd, encoding: "utf8", env: { ...process.env, PYTHONPATH: site, PYTHONDONTWRITEBYTECODE: "1" } });
}

describe.skipIf(!ready)("the compiled Python runtime", () => {
  it("is built from the package's current sources", () => {
    const result = buildScript([]);
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  }, 600_000);

  it("compiles the ingest path and leaves interpreted the entry points that check their own arguments", () => {
    const modules = ["_accept", "_envelope_check", "_stores", "checks.duplicate", "envelopes.v1_4", "builders", "parse", "_lease", "observe", "_canonical", "codegen", "redis_store"];
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
      observe: false,
      _canonical: false,
      codegen: false,
      redis_store: false,
    });
  });

  it("says which build it is (seam_handoff.is_compiled)", () => {
    const script = "import seam_handoff; print(seam_handoff.is_compiled())";
    const pure = spawnSync(python, ["-c", script], { encoding: "utf8", env: { ...process.env, PYTHONPATH: join(projectRoot, "python", "src") } });
    expect([pure.stdout, compiledPython(["-c", script], projectRoot).stdout]).toEqual(["False\n", "True\n"]);
  });

  it("passes the package's pytest suite", () => {
    const result = compiledPython(["-m", "pytest", "-q", "-p", "no:cacheprovider"], join(projectRoot, "python"));
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/\d+ passed/);
  }, 120_000);
});
