/** Running Python from the tests: the interpreter, Debian packages, and one process per batch. */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CheckedGraph } from "../../../src/analysis/model.js";
import { emitPythonModule } from "../../../src/emit/python/python-module.js";
import { makeTempDir } from "../helpers.js";

/** This folder (driver.py, oracle.py). */
export const HERE = fileURLToPath(new URL(".", import.meta.url));

const CANDIDATES = ["python3", "/usr/bin/python3"];

function works(python: string, module?: string): boolean {
  const code = module === undefined ? "import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)" : `import ${module}`;
  return spawnSync(python, ["-c", code], { stdio: "ignore" }).status === 0;
}

/** The first Python 3.10+ on this machine, or undefined. */
export const python: string | undefined = CANDIDATES.find((candidate) => works(candidate));

/** A Python that can import `module` (a Debian package's module), or undefined. */
export function pythonWith(module: string): string | undefined {
  return CANDIDATES.find((candidate) => works(candidate, module));
}

/** The one line a test prints when it skips for a missing program or package. */
export function skipLine(what: string): string {
  return `skipped: needs ${what} (apt-get install ${what})`;
}

/**
 * Runs `script` with `args` under `interpreter`, the request as JSON on stdin; returns the JSON
 * the script prints.
 *
 * @throws Error with the script's stderr when it exits non-zero
 */
export function runJson<T>(interpreter: string, script: string, args: readonly string[], request: unknown): T {
  const result = spawnSync(interpreter, [script, ...args], {
    input: JSON.stringify(request),
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (result.status !== 0) throw new Error(`${interpreter} ${script} exited ${result.status}:\n${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** Writes the Python module of `graph` (checked from `sourceText`) into a new temporary folder; returns its path. */
export function writePythonModule(graph: CheckedGraph, prefix: string, sourceText = ""): string {
  const dir = makeTempDir(prefix);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${graph.name.replace(/-/g, "_")}_validators.py`);
  writeFileSync(file, emitPythonModule(graph, { text: sourceText }));
  return file;
}

/** Runs the test driver (driver.py) on an emitted module. */
export function drive<T>(interpreter: string, modulePath: string, request: unknown): T {
  return runJson<T>(interpreter, join(HERE, "driver.py"), [modulePath], request);
}
