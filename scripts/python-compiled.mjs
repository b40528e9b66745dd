// Builds the compiled Python runtime: the package `python/` as a wheel whose ingest path mypyc
// has compiled into extension modules (python/pyproject.toml, the hook `mypyc`), for one
// interpreter, and unpacks it into a folder that PYTHONPATH can name.
//
//   node scripts/python-compiled.mjs [--python <interpreter>] [--out <dir>]
//
// --python: the interpreter to build for, a path or a name on PATH (default .venv/bin/python; it
// needs pip, a C compiler and the interpreter's headers). --out: default .tmp/python-compiled; a new or empty folder, or one
// this script made (it is emptied for each build). Writes <out>/wheel/*.whl (to
// `pip install` into a service's environment) and <out>/site/ (the wheel unpacked: the bench and
// the tests run the Python suites with PYTHONPATH=<out>/site). The package is built from a copy,
// since mypyc writes its extension modules beside the sources it compiles. A build whose
// sources, interpreter and pins have not changed since the last is kept (<out>/stamp.json).
// Exit code 2 for bad options and when the build fails, with pip's output.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const source = join(root, "python");

function fail(message) {
  process.stderr.write(`python-compiled: ${message}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({ options: { python: { type: "string" }, out: { type: "string" } }, strict: true }));
} catch (error) {
  fail(`${error.message}; usage: node scripts/python-compiled.mjs [--python <interpreter>] [--out <dir>]`);
}
// A bare name (python3.12) is looked up on PATH, as a shell would.
const python = values.python === undefined ? join(root, ".venv", "bin", "python") : values.python.includes("/") ? resolve(values.python) : values.python;
const out = resolve(values.out ?? join(root, ".tmp", "python-compiled"));

/** Every file of the package's source, in a stable order. */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.includes("__pycache__"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

if (python.includes("/") && !existsSync(python)) fail(`no interpreter at ${python}: create .venv (docs/python.md, "Checking the package") or pass --python`);
const version = spawnSync(python, ["-c", "import sys; print(sys.version)"], { encoding: "utf8" });
if (version.status !== 0) {
  const why = version.error?.message ?? (version.stderr.trim() || `exit ${version.status ?? version.signal}`);
  fail(`${python} does not run as a Python interpreter (${why})`);
}

const hash = createHash("sha256");
hash.update(`${python}\n${version.stdout}`);
for (const file of [join(source, "pyproject.toml"), join(source, "README.md"), ...sourceFiles(join(source, "src"))]) {
  hash.update(`${relative(source, file)}\n`).update(readFileSync(file));
}
const stamp = { python, sources: hash.digest("hex") };
const stampFile = join(out, "stamp.json");
if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === JSON.stringify(stamp) && existsSync(join(out, "site", "seam_handoff"))) {
  process.stdout.write(`python-compiled: up to date in ${out}\n`);
  process.exit(0);
}

// Only a folder this script made (its marker inside, even after a failed build) or an empty one
// is cleared for the build.
const marker = join(out, ".made-by-python-compiled");
if (existsSync(out) && !existsSync(marker) && !existsSync(stampFile) && readdirSync(out).length > 0) {
  fail(`${out} holds files this script did not write: pass --out a new or empty folder`);
}
rmSync(out, { recursive: true, force: true });
const copy = join(out, "source");
mkdirSync(copy, { recursive: true });
writeFileSync(marker, "");
for (const name of ["pyproject.toml", "README.md", "src"]) {
  cpSync(join(source, name), join(copy, name), { recursive: true, filter: (path) => !path.includes("__pycache__") });
}

/** Runs pip with `args`; exits 2 with its output when it fails. */
function pip(args, env = process.env) {
  const result = spawnSync(python, ["-m", "pip", "--disable-pip-version-check", ...args], { encoding: "utf8", env, maxBuffer: 64 << 20 });
  if (result.status !== 0) fail(`pip ${args[0]} exited ${result.status ?? result.signal}:\n${result.stdout}${result.stderr}`);
}

process.stdout.write(`python-compiled: compiling the runtime with mypyc for ${version.stdout.split("\n")[0]} (a few minutes)\n`);
pip(["wheel", "--no-deps", "--quiet", "--wheel-dir", join(out, "wheel"), copy], { ...process.env, HATCH_BUILD_HOOK_ENABLE_MYPYC: "1" });
const [wheel, ...others] = readdirSync(join(out, "wheel")).filter((name) => name.endsWith(".whl"));
if (wheel === undefined || others.length > 0) fail(`expected one wheel in ${join(out, "wheel")}`);
pip(["install", "--no-deps", "--quiet", "--target", join(out, "site"), join(out, "wheel", wheel)]);
rmSync(copy, { recursive: true, force: true });
writeFileSync(stampFile, JSON.stringify(stamp));
process.stdout.write(`python-compiled: ${join(out, "wheel", wheel)}\npython-compiled: PYTHONPATH=${join(out, "site")}\n`);
