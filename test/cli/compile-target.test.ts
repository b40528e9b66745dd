import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { pythonRuntimeFiles } from "../../src/core/package-files.js";
import { planPythonModuleNames } from "../../src/emit/python/module-names.js";
import { checkedGraphs, fixturePath, makeTempDir, removeTempDirs } from "../emit/helpers.js";
import { python, skipLine } from "../emit/python/python.js";
import { createFakeIo } from "./fake-io.js";

afterAll(() => removeTempDirs());

const SHARED = [
  "refund_desk.billing-return-triage.schema.json",
  "refund_desk.dot",
  "refund_desk.envelope.schema.json",
  "refund_desk.mmd",
  "refund_desk.refunds-transfer-notifier.schema.json",
  "refund_desk.triage-delegate-billing.schema.json",
  "refund_desk.triage-delegate-refunds.schema.json",
];
const JS = ["refund_desk.validators.d.mts", "refund_desk.validators.mjs"];
const PYTHON = ["refund_desk_validators.py"];

async function compile(...targets: string[]): Promise<{ code: number; files: string[]; err: string; out: string; folder: string }> {
  const out = makeTempDir("compile-target");
  const io = createFakeIo(fixturePath("cases", "envelopes"));
  const code = await run(["compile", "graph.seam", "--out", out, ...targets], io);
  return { code, files: readdirSync(out).sort(), err: io.err(), out: io.out(), folder: out };
}

describe("seam compile --target", () => {
  it("writes the JavaScript module by default", async () => {
    const r = await compile();
    expect(r.code).toBe(0);
    expect(r.files).toEqual([...SHARED, ...JS].sort());
  });

  it("writes the Python module, and no JavaScript module, for --target python", async () => {
    const r = await compile("--target", "python");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.files).toEqual([...SHARED, ...PYTHON].sort());
    expect(r.out.trim().split("\n")).toHaveLength(SHARED.length + PYTHON.length);
  });

  it("takes several targets, as a comma list or repeated", async () => {
    const all = [...SHARED, ...JS, ...PYTHON].sort();
    expect((await compile("--target", "js,python")).files).toEqual(all);
    expect((await compile("--target", "python", "--target", "js")).files).toEqual(all);
    expect((await compile("--target", "python, js,python")).files).toEqual(all);
  });

  it("refuses an unknown target as a usage error and writes nothing", async () => {
    const r = await compile("--target", "js,rust");
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      "seam: option '--target <language>' argument 'js,rust' is invalid. Expected js or python (repeat --target or separate with commas), not \"rust\". (see 'seam compile --help')\n",
    );
    expect(r.files).toEqual([]);
  });
});

describe("seam compile --vendor-runtime", () => {
  it("writes the runtime package beside the modules, which then import it with no install", async () => {
    const r = await compile("--target", "python", "--vendor-runtime");
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.files).toEqual([...SHARED, ...PYTHON, "seam_handoff"].sort());
    const runtime = pythonRuntimeFiles();
    expect(runtime.map((f) => f.path)).toContain("seam_handoff/ledger.lua");
    for (const file of runtime) expect(readFileSync(join(r.folder, file.path), "utf8")).toBe(file.content);
    expect(runtime.map((f) => f.path)).toContain("seam_handoff/checks/bad_hop_path.py");
    const written = readdirSync(join(r.folder, "seam_handoff"), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(join(r.folder, "seam_handoff"), join(entry.parentPath, entry.name)));
    expect(written.sort()).toEqual(runtime.map((f) => f.path.slice("seam_handoff/".length)));
    if (python === undefined) return console.log(skipLine("python3"));
    // No PYTHONPATH: the module finds the vendored runtime in its own folder.
    const { PYTHONPATH: _unused, ...env } = process.env;
    const result = spawnSync(python, ["-c", "import refund_desk_validators as m, seam_handoff; print(m.Accepted is seam_handoff.Accepted, seam_handoff.__file__)"], {
      cwd: r.folder,
      env,
      encoding: "utf8",
    });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(`True ${join(r.folder, "seam_handoff", "__init__.py")}\n`);
  });

  it("needs the python target", async () => {
    const r = await compile("--vendor-runtime");
    expect(r.code).toBe(2);
    expect(r.err).toBe("seam: graph.seam: --vendor-runtime writes the Python runtime, but no Python modules are asked for (add --target python)\n");
    expect(r.files).toEqual([]);
  });

  it("never writes through a link standing where the runtime's folder goes", async () => {
    const out = makeTempDir("compile-vendor-link");
    const elsewhere = makeTempDir("compile-vendor-elsewhere");
    symlinkSync(elsewhere, join(out, "seam_handoff"));
    const io = createFakeIo(fixturePath("cases", "envelopes"));
    expect(await run(["compile", "graph.seam", "--out", out, "--target", "python", "--vendor-runtime"], io)).toBe(2);
    expect(io.err()).toBe(`seam: ${join(out, "seam_handoff", "__init__.py")}: cannot be written: a part of the path is not a folder (check the path)\n`);
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe("planPythonModuleNames", () => {
  it("makes importable names and numbers clashes that differ only in case or hyphen", () => {
    const graphs = checkedGraphs(
      ["a-b", "a_b", "A_B", "plain"]
        .map((name) => `graph ${name} {\n  envelope 1.3\n  entry x\n  hop_limit 2\n  agent x: supervisor { terminal done complete }\n}\n`)
        .join("\n"),
    );
    expect(planPythonModuleNames(graphs)).toEqual(["a_b_validators.py", "a_b_validators_2.py", "A_B_validators_3.py", "plain_validators.py"]);
  });
});
