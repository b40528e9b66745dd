// Python target: what a Python agent service pays per envelope for the module that
// `seam compile --target python` writes, beside the two JSON Schema libraries such a service
// would otherwise use, on the same edge schema (the `<graph>.<from>-<kind>-<to>.schema.json` file):
//   - jsonschema's Draft202012Validator with format checking, every error collected,
//   - fastjsonschema (schema compiled to Python code; stops at the first error).
// Per graph (the help desk, and the refund desk of the envelope cases): accept() with a fresh
// duplicate store per batch, accept() without one, and the generated edge validator alone; in a
// full run also accept() of the same module and vendored runtime compiled with mypyc (the bench
// Python's own mypy, Debian's python3-mypy; the row is left out without it).
// Timed inside one Python process (bench/python_accept.py): ns/op, median of 9 interleaved batches.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { findPython, runPythonJson } from "./python.mjs";
import { SMOKE, progress, runIfMain, scaled } from "./section.mjs";
import { median } from "./stats.mjs";
import { fmtNs, row } from "./table.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = fileURLToPath(new URL("./.out/python/", import.meta.url));
const POOL = scaled(2_000, 200);
const ROUNDS = scaled(9, 1);

const GRAPHS = [
  {
    label: "help desk",
    seam: "test/fixtures/cases/envelopes-help-desk/graph.seam",
    envelope: "test/fixtures/cases/envelopes-help-desk/replay-first.json",
    stem: "help_desk",
    edge: { from: "concierge", kind: "delegate", to: "invoices" },
  },
  {
    label: "refund desk",
    seam: "test/fixtures/cases/envelopes/graph.seam",
    envelope: "test/fixtures/cases/envelopes/valid-delegate.json",
    stem: "refund_desk",
    edge: { from: "triage", kind: "delegate", to: "billing" },
  },
];

/** A Python with jsonschema and fastjsonschema (Debian's packages, installed when missing). */
function benchPython() {
  const python = findPython("fastjsonschema");
  const both = spawnSync(python, ["-c", "import jsonschema, fastjsonschema"], { stdio: "ignore" }).status === 0;
  return both ? python : findPython("jsonschema");
}

/** The runtime's modules on accept()'s path, compiled in the mypyc build (with the graph's module and its envelope module). */
const MYPYC_RUNTIME = ["_accept.py", "_clock.py", "_custody.py", "_envelope_check.py", "_fields.py", "_stores.py"];

/**
 * A copy of the compiled folder `out` with accept()'s modules compiled by mypyc, or undefined
 * (printing why) when the bench Python has no mypyc.
 */
function mypycBuild(python, out, stem) {
  if (spawnSync(python, ["-c", "import mypyc"], { stdio: "ignore" }).status !== 0) {
    progress("python: no mypyc for the bench Python (python3-mypy): the compiled row is left out");
    return undefined;
  }
  const built = `${out.slice(0, -1)}-mypyc/`;
  rmSync(built, { recursive: true, force: true });
  cpSync(out, built, { recursive: true });
  const module = readFileSync(`${built}${stem}_validators.py`, "utf8");
  const envelope = /^from seam_handoff\.envelopes import (v\d+_\d+) as _envelope$/m.exec(module)?.[1];
  if (envelope === undefined) throw new Error(`${stem}_validators.py names no envelope module`);
  // The rule modules; not the package's __init__ (the rule list, off the hot path), whose `from . import`
  // Debian's mypyc 1.0 resolves against the parent package.
  const checks = readdirSync(`${built}seam_handoff/checks/`)
    .filter((name) => name.endsWith(".py") && name !== "__init__.py")
    .map((name) => `seam_handoff/checks/${name}`);
  const files = [...MYPYC_RUNTIME.map((name) => `seam_handoff/${name}`), `seam_handoff/envelopes/${envelope}.py`, ...checks, `${stem}_validators.py`];
  progress(`python: mypyc ${stem} (${files.length} modules)`);
  const result = spawnSync(python, ["-m", "mypyc", ...files], { cwd: built, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`mypyc exited ${result.status}:\n${result.stdout}${result.stderr}`);
  return built;
}

function compile(graph, out) {
  rmSync(out, { recursive: true, force: true });
  const result = spawnSync(process.execPath, ["bin/seam.js", "compile", graph.seam, "--out", out, "--target", "python", "--vendor-runtime"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`seam compile exited ${result.status}:\n${result.stderr}`);
}

export async function measurePython() {
  const python = benchPython();
  const rows = [];
  const data = {};
  for (const graph of GRAPHS) {
    progress(`python: ${graph.label}`);
    const out = `${OUT}${graph.stem}/`;
    mkdirSync(out, { recursive: true });
    compile(graph, out);
    const base = JSON.parse(readFileSync(`${ROOT}${graph.envelope}`, "utf8"));
    const envelopes = Array.from({ length: POOL }, (_, i) => ({
      ...base,
      handoff_id: `a3d9e7c2-51f0-4b8e-8d26-${i.toString(16).padStart(12, "0")}`,
      task_id: `bench-${i}`,
    }));
    const envelopesFile = `${out}envelopes.json`;
    writeFileSync(envelopesFile, JSON.stringify(envelopes));
    const { from, kind, to } = graph.edge;
    const result = runPythonJson(python, fileURLToPath(new URL("python_accept.py", import.meta.url)), [
      `${out}${graph.stem}_validators.py`,
      `${out}${graph.stem}.${from}-${kind}-${to}.schema.json`,
      envelopesFile,
      from,
      kind,
      to,
      String(ROUNDS),
    ]);
    const ns = Object.fromEntries(Object.entries(result.ns_per_op).map(([name, list]) => [name, median(list)]));
    const built = SMOKE ? undefined : mypycBuild(python, out, graph.stem);
    if (built !== undefined) {
      const compiled = runPythonJson(python, fileURLToPath(new URL("python_accept.py", import.meta.url)), [
        `${built}${graph.stem}_validators.py`,
        `${built}${graph.stem}.${from}-${kind}-${to}.schema.json`,
        envelopesFile,
        from,
        kind,
        to,
        String(ROUNDS),
      ]);
      ns.accept_mypyc = median(compiled.ns_per_op.accept);
      ns.fastjsonschema_mypyc_run = median(compiled.ns_per_op.fastjsonschema);
    }
    data[graph.stem] = { ...result, median: ns, bytes: Buffer.byteLength(JSON.stringify(base, null, 2)) };
    rows.push(
      row(`${graph.label}: accept() vs jsonschema Draft202012Validator + formats (speed-up)`, fmtNs(ns.accept), fmtNs(ns.jsonschema), {
        ratio: ns.jsonschema / ns.accept,
        target: { op: ">=", value: 20 },
      }),
      row(`${graph.label}: accept() vs fastjsonschema`, fmtNs(ns.accept), fmtNs(ns.fastjsonschema), {
        ratio: ns.accept / ns.fastjsonschema,
        target: { op: "<=", value: 1 },
      }),
      row(`${graph.label}: accept() without a duplicate store vs fastjsonschema`, fmtNs(ns.accept_no_store), fmtNs(ns.fastjsonschema), {
        ratio: ns.accept_no_store / ns.fastjsonschema,
      }),
      row(`${graph.label}: generated edge validator alone vs fastjsonschema`, fmtNs(ns.edge_validator), fmtNs(ns.fastjsonschema), {
        ratio: ns.edge_validator / ns.fastjsonschema,
      }),
    );
    if (ns.accept_mypyc !== undefined) {
      // fastjsonschema as timed in the same process as the compiled build.
      rows.push(
        row(`${graph.label}: accept() compiled with mypyc vs fastjsonschema`, fmtNs(ns.accept_mypyc), fmtNs(ns.fastjsonschema_mypyc_run), {
          ratio: ns.accept_mypyc / ns.fastjsonschema_mypyc_run,
        }),
      );
    }
  }
  return {
    title: `Python target (ns/op, median of ${ROUNDS} batches x ${POOL} envelopes; jsonschema ${POOL / 10})`,
    data,
    rows,
  };
}

runIfMain(import.meta.url, measurePython);
