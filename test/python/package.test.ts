/**
 * The Python runtime package's own checks, run by `npm test`: pytest on python/tests, and mypy
 * --strict, pyright strict, ruff check and ruff format --check on the package and on the modules
 * `seam compile --target python` writes for every example (and their `--pydantic` models). They run in the virtual environment
 * `.venv` that `.ci/run` makes (`python3 -m venv .venv && .venv/bin/pip install -r
 * python/requirements-test.txt -e python`); without it they skip with one line, and under CI=true
 * a skip is a failure.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emitPydanticModels } from "../../src/emit/python/pydantic-models.js";
import { emitPythonModule } from "../../src/emit/python/python-module.js";
import { checkedGraphs, makeTempDir, projectRoot, readFixture, removeTempDirs } from "../emit/helpers.js";

afterAll(() => removeTempDirs());

const venv = join(projectRoot, ".venv", "bin");
const ready = existsSync(join(venv, "pytest")) && existsSync(join(venv, "pyright"));
const SETUP = "python3 -m venv .venv && .venv/bin/pip install -r python/requirements-test.txt -e python";
if (!ready) {
  if (process.env["CI"] === "true") throw new Error(`the Python checks need .venv: ${SETUP}`);
  console.log(`skipped: needs .venv with pytest, mypy, pyright, ruff (${SETUP})`);
}

/** A type checker over several thousand generated lines takes a while on a shared machine. */
const SLOW = 300_000;

/** Runs a program of the virtual environment in `cwd`; returns its exit code and output. */
function tool(name: string, args: readonly string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync(join(venv, name), args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      // pyright's PyPI wrapper installs the pinned npm release once, into the environment.
      PYRIGHT_PYTHON_CACHE_DIR: join(projectRoot, ".venv", "pyright-cache"),
      PYRIGHT_PYTHON_IGNORE_WARNINGS: "1",
    },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** The modules of every example, compiled into one new folder, with the package's tool settings. */
function compiledExamples(): string {
  const dir = makeTempDir("py-tools");
  for (const example of readdirSync(join(projectRoot, "examples")).filter((name) => name.endsWith(".seam"))) {
    const text = readFileSync(join(projectRoot, "examples", example), "utf8");
    for (const graph of checkedGraphs(text, example)) {
      writeFileSync(join(dir, `${graph.name.replace(/-/g, "_")}_validators.py`), emitPythonModule(graph, { text }));
      writeFileSync(join(dir, `${graph.name.replace(/-/g, "_")}_models.py`), emitPydanticModels(graph, { text }));
    }
  }
  writeFileSync(join(dir, "pyproject.toml"), readFileSync(join(projectRoot, "python", "pyproject.toml"), "utf8"));
  return dir;
}

describe.skipIf(!ready)("the Python package", () => {
  const python = join(projectRoot, "python");

  it("passes its pytest suite (exit 5, no tests collected, is a failure too)", () => {
    const result = tool("pytest", ["-q", "-p", "no:cacheprovider"], python);
    expect(result.status, result.output).toBe(0);
    expect(result.output).toMatch(/\d+ passed/);
  });

  it("tests against a generated module that is up to date (node scripts/python-test-module.mjs writes it)", () => {
    const text = readFixture("cases", "envelopes", "graph.seam");
    const [graph] = checkedGraphs(text, "graph.seam");
    expect(readFileSync(join(python, "tests", "refund_desk_validators.py"), "utf8")).toBe(emitPythonModule(graph!, { text }));
    const payouts = readFileSync(join(projectRoot, "conformance", "approvals", "graph.seam"), "utf8");
    const [gated] = checkedGraphs(payouts, "graph.seam");
    expect(readFileSync(join(python, "tests", "payouts_validators.py"), "utf8")).toBe(emitPythonModule(gated!, { text: payouts }));
  });

  it.each([
    ["mypy --strict", "mypy", ["--strict", "--no-incremental", "--cache-dir=/dev/null", "src", "tests"]],
    ["pyright strict", "pyright", ["--pythonpath", join(venv, "python")]],
    ["ruff check", "ruff", ["check", "--no-cache", "."]],
    ["ruff format --check", "ruff", ["format", "--check", "--no-cache", "."]],
  ] as const)(
    "passes %s",
    (_label, name, args) => {
      const result = tool(name, args, python);
      expect(result.status, result.output).toBe(0);
    },
    SLOW,
  );
});

describe.skipIf(!ready)("every generated module", () => {
  const dir = ready ? compiledExamples() : "";
  const files = ready ? readdirSync(dir).filter((name) => name.endsWith(".py")) : [];

  it.each([
    ["mypy --strict", "mypy", ["--strict", "--no-incremental", "--cache-dir=/dev/null"]],
    ["pyright strict", "pyright", ["--pythonpath", join(venv, "python")]],
    ["ruff check", "ruff", ["check", "--no-cache"]],
    ["ruff format --check", "ruff", ["format", "--check", "--no-cache"]],
  ] as const)(
    "passes %s",
    (_label, name, args) => {
      expect(files.length).toBeGreaterThanOrEqual(6);
      const result = tool(name, [...args, ...files], dir);
      expect(result.status, result.output).toBe(0);
    },
    SLOW,
  );
});

describe.skipIf(!ready)("the types of a generated module", () => {
  const dir = makeTempDir("py-types");
  writeFileSync(join(dir, "pyproject.toml"), readFileSync(join(projectRoot, "python", "pyproject.toml"), "utf8"));
  writeFileSync(join(dir, "refund_desk_validators.py"), readFileSync(join(projectRoot, "python", "tests", "refund_desk_validators.py"), "utf8"));
  writeFileSync(
    join(dir, "misuse.py"),
    [
      "import refund_desk_validators as desk",
      "",
      'desk.accept({}, me="biling")',
      'missing: desk.DelegateEnvelope__triage__billing = {"envelope_version": "1.3.0"}',
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "use.py"),
    [
      "import json",
      "",
      "import refund_desk_validators as desk",
      "",
      'result = desk.accept(json.loads("{}"), me="billing")',
      "print(result.to_dict())",
      "",
    ].join("\n"),
  );

  it("make a misspelt me and a missing required field errors for mypy --strict", { timeout: SLOW }, () => {
    const bad = tool("mypy", ["--strict", "--no-incremental", "--cache-dir=/dev/null", "misuse.py"], dir);
    expect(bad.output.split("\n").filter((line) => line.startsWith("misuse.py"))).toEqual([
      `misuse.py:3: error: Argument "me" to "accept" has incompatible type "Literal['biling']"; expected "Literal['triage', 'billing', 'refunds', 'notifier']"  [arg-type]`,
      'misuse.py:4: error: Missing keys ("handoff_id", "task_id", "hop", "from_agent", "to_agent", "goal", "constraints", "budget", "provenance") for TypedDict "DelegateEnvelope__triage__billing"  [typeddict-item]',
    ]);
    expect(bad.status).toBe(1);
    const good = tool("mypy", ["--strict", "--no-incremental", "--cache-dir=/dev/null", "use.py"], dir);
    expect(good.status, good.output).toBe(0);
  });

  it("make a misspelt me and a missing required field errors for pyright strict", { timeout: SLOW }, () => {
    const bad = tool("pyright", ["--pythonpath", join(venv, "python"), "--outputjson", "misuse.py"], dir);
    const report = JSON.parse(bad.output.slice(bad.output.indexOf("{"))) as {
      generalDiagnostics: { range: { start: { line: number } }; rule: string; message: string }[];
    };
    expect(report.generalDiagnostics.map((d) => [d.range.start.line + 1, d.rule, d.message.split("\n")[0]])).toEqual([
      [3, "reportArgumentType", `Argument of type "Literal['biling']" cannot be assigned to parameter "me" of type "AgentId" in function "accept"`],
      [4, "reportAssignmentType", 'Type "dict[str, str]" is not assignable to declared type "DelegateEnvelope__triage__billing"'],
    ]);
    const good = tool("pyright", ["--pythonpath", join(venv, "python"), "use.py"], dir);
    expect(good.status, good.output).toBe(0);
  });
});
