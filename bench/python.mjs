// Finds a Python 3 that can import the peer's module (networkx, jsonschema), installing
// Debian's package when none can: first `python3` on PATH, then `/usr/bin/python3`, then
// `apt-get install -y python3-<module>` (after one `apt-get update`) and `/usr/bin/python3`.
// Under CI=true nothing is installed: .ci/run installs the packages, so a missing one fails.
import { spawnSync } from "node:child_process";

const CANDIDATES = ["python3", "/usr/bin/python3"];
let aptUpdated = false;

/** Whether `python` runs and imports `module` (a comma-separated list imports each). */
export const canImport = (python, module) =>
  spawnSync(python, ["-c", `import ${module}`], { stdio: "ignore" }).status === 0;

function apt(args) {
  const result = spawnSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error(`apt-get ${args.join(" ")} failed (exit ${result.status})`);
}

/**
 * Returns the path of a Python that imports `module`, installing `python3-<module>` from
 * Debian when needed.
 * @throws Error when no Python can import it even after the install.
 */
export function findPython(module) {
  for (const python of CANDIDATES) if (canImport(python, module)) return python;
  if (process.env.CI === "true") throw new Error(`no python3 can import ${module} (Debian package python3-${module}); under CI=true this is a failure, not a skip`);
  if (!aptUpdated) {
    apt(["update"]);
    aptUpdated = true;
  }
  apt(["install", "-y", `python3-${module}`]);
  if (canImport("/usr/bin/python3", module)) return "/usr/bin/python3";
  throw new Error(`no python3 can import ${module}, even after installing python3-${module}`);
}

/**
 * Runs a Python script (in the environment `env`) that prints one JSON document on stdout and
 * returns it parsed.
 * @throws Error when the script exits non-zero or prints something else.
 */
export function runPythonJson(python, script, args, env = process.env) {
  const result = spawnSync(python, [script, ...args], { encoding: "utf8", maxBuffer: 64 << 20, env });
  if (result.status !== 0) {
    throw new Error(`${python} ${script} exited ${result.status}:\n${result.stderr}`);
  }
  return JSON.parse(result.stdout);
}
