/**
 * The package as a user gets it: `pip install ./python` into a fresh virtual environment (pip
 * builds the wheel with the pinned hatchling, as from a published sdist), then a module freshly
 * written by `seam compile --target python` imports the installed runtime, with no PYTHONPATH
 * and nothing of this checkout on the path, and checks an envelope.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../global-setup.js";
import { makeTempDir, projectRoot, removeTempDirs } from "../emit/helpers.js";
import { python, skipLine } from "../emit/python/python.js";

afterAll(() => removeTempDirs());

if (python === undefined) console.log(skipLine("python3-venv"));

describe.skipIf(python === undefined)("pip install ./python into a fresh venv", () => {
  it("installs the runtime, which a freshly compiled module imports and runs", { timeout: 600_000 }, () => {
    ensureBuilt();
    const root = makeTempDir("py-install");
    const venv = join(root, "venv");
    const { PYTHONPATH: _unused, ...env } = process.env;
    const made = spawnSync(python as string, ["-m", "venv", venv], { encoding: "utf8", env });
    expect(made.stderr).toBe("");
    const pip = spawnSync(join(venv, "bin", "pip"), ["install", "--disable-pip-version-check", "--quiet", join(projectRoot, "python")], { encoding: "utf8", env });
    expect(pip.status, pip.stderr).toBe(0);
    const out = join(root, "out");
    const compiled = spawnSync(process.execPath, [join(projectRoot, "bin", "seam"), "compile", join(projectRoot, "test", "fixtures", "cases", "envelopes", "graph.seam"), "--out", out, "--target", "python"], {
      encoding: "utf8",
      env,
    });
    expect(compiled.status, compiled.stderr).toBe(0);
    const envelope = readFileSync(join(projectRoot, "test", "fixtures", "cases", "envelopes", "valid-delegate.json"), "utf8");
    const script = [
      "import json, sys",
      "import seam_handoff, refund_desk_validators as desk",
      "verdict = desk.accept(json.loads(sys.stdin.read()), me='billing')",
      "print(json.dumps({'runtime': seam_handoff.__file__, 'version': seam_handoff.__version__, 'ok': verdict.ok, 'same': desk.Accepted is seam_handoff.Accepted}))",
    ].join("\n");
    const ran = spawnSync(join(venv, "bin", "python"), ["-I", "-c", `import sys; sys.path.insert(0, ${JSON.stringify(out)}); exec(${JSON.stringify(script)})`], {
      cwd: root,
      input: envelope,
      encoding: "utf8",
      env,
    });
    expect(ran.stderr).toBe("");
    const result = JSON.parse(ran.stdout) as { runtime: string; version: string; ok: boolean; same: boolean };
    expect(result.runtime.startsWith(join(venv, "lib"))).toBe(true);
    expect(result.runtime.endsWith(join("site-packages", "seam_handoff", "__init__.py"))).toBe(true);
    expect(result).toMatchObject({ version: JSON.parse(readFileSync(join(projectRoot, "package.json"), "utf8")).version, ok: true, same: true });
  });
});
