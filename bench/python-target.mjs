// Python target: what a Python agent service pays per envelope for the module that
// `seam compile --target python` writes, beside the two JSON Schema libraries such a service
// would otherwise use, on the same edge schema (the `<graph>.<from>-<kind>-<to>.schema.json` file):
//   - jsonschema's Draft202012Validator with format checking, every error collected,
//   - fastjsonschema (schema compiled to Python code; stops at the first error).
// Per graph (the help desk, and the refund desk of the envelope cases): accept() with a fresh
// duplicate store per batch, accept() without one, and the generated edge validator alone; then
// the same with the compiled build of the runtime (mypyc: scripts/python-compiled.mjs), in a
// second process of the same interpreter, beside the same peers again. On the refund desk, both
// builds also check a hostile envelope at the 1 MiB limit (bench/flood.mjs) beside the generated
// edge validator alone.
// Timed inside one Python process each (bench/python_accept.py): ns/op, median of 9 interleaved
// batches. The interpreter is the project's .venv, with the peers pinned in
// python/requirements-bench.txt, since the compiled build is built for it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { canImport, findPython, runPythonJson } from "./python.mjs";
import { missing, progress, runIfMain, scaled } from "./section.mjs";
import { median } from "./stats.mjs";
import { floodedEnvelope } from "./flood.mjs";
import { fmtNs, row } from "./table.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = fileURLToPath(new URL("./.out/python/", import.meta.url));
const POOL = scaled(2_000, 200);
const ROUNDS = scaled(9, 1);
/** The hostile envelope's size in bytes and its timed rounds (a check takes seconds in pure Python). */
const FLOOD = scaled({ bytes: 1_048_576, rounds: 3 }, { bytes: 65_536, rounds: 1 });

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
    flood: true,
  },
];

const VENV_PYTHON = `${ROOT}.venv/bin/python`;
const COMPILED_SITE = `${ROOT}.tmp/python-compiled/site`;

/**
 * The project's .venv with the pinned peers; without it (after one line, or a failure under
 * CI=true), a Python with Debian's jsonschema and fastjsonschema, and no compiled rows.
 */
function benchPython() {
  if (canImport(VENV_PYTHON, "jsonschema, fastjsonschema")) return VENV_PYTHON;
  missing("the bench's Python peers in .venv", ".venv/bin/pip install -r python/requirements-bench.txt");
  const python = findPython("fastjsonschema");
  return canImport(python, "jsonschema, fastjsonschema") ? python : findPython("jsonschema");
}

/** Writes the graph's Python module into `out`, with the runtime's source beside it when `vendor`. */
function compile(graph, out, vendor) {
  rmSync(out, { recursive: true, force: true });
  const args = ["bin/seam.js", "compile", graph.seam, "--out", out, "--target", "python", ...(vendor ? ["--vendor-runtime"] : [])];
  const result = spawnSync(process.execPath, args, {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`seam compile exited ${result.status}:\n${result.stderr}`);
}

/** Runs bench/python_accept.py on `graph`'s module in `out`; returns its answer, medians added. */
function timeAccept(python, graph, out, envelopesFile, floodFile, env) {
  const { from, kind, to } = graph.edge;
  const result = runPythonJson(
    python,
    fileURLToPath(new URL("python_accept.py", import.meta.url)),
    [
      `${out}${graph.stem}_validators.py`,
      `${out}${graph.stem}.${from}-${kind}-${to}.schema.json`,
      envelopesFile,
      from,
      kind,
      to,
      String(ROUNDS),
      ...(floodFile === undefined ? [] : [floodFile, String(FLOOD.rounds)]),
    ],
    env,
  );
  const medians = (perOp) => Object.fromEntries(Object.entries(perOp).map(([name, list]) => [name, median(list)]));
  return { ...result, median: medians(result.ns_per_op), ...(result.flood === undefined ? {} : { floodMedian: medians(result.flood.ns_per_op) }) };
}

/** The flood rows of one build: accept() vs the generated edge validator on the hostile envelope. */
function floodRow(label, result, bytes) {
  const { accept, edge_validator: validator } = result.floodMedian;
  return row(`${label}: accept() of a ${bytes}-byte envelope of ${result.flood.decisions} empty decisions vs its edge validator alone`, fmtNs(accept), fmtNs(validator), {
    ratio: accept / validator,
  });
}

export async function measurePython() {
  const python = benchPython();
  const compiled = python === VENV_PYTHON && existsSync(COMPILED_SITE);
  if (python === VENV_PYTHON && !compiled) missing("the compiled Python runtime", "npm run build:python-compiled");
  const rows = [];
  const data = {};
  for (const graph of GRAPHS) {
    progress(`python: ${graph.label}`);
    const out = `${OUT}${graph.stem}/`;
    mkdirSync(out, { recursive: true });
    compile(graph, out, true);
    const base = JSON.parse(readFileSync(`${ROOT}${graph.envelope}`, "utf8"));
    const envelopes = Array.from({ length: POOL }, (_, i) => ({
      ...base,
      handoff_id: `a3d9e7c2-51f0-4b8e-8d26-${i.toString(16).padStart(12, "0")}`,
      task_id: `bench-${i}`,
    }));
    const envelopesFile = `${out}envelopes.json`;
    writeFileSync(envelopesFile, JSON.stringify(envelopes));
    const flood = graph.flood === true ? floodedEnvelope(envelopes[0], FLOOD.bytes) : undefined;
    const floodFile = flood === undefined ? undefined : `${out}flood.json`;
    if (flood !== undefined) writeFileSync(floodFile, JSON.stringify(flood.envelope));
    const result = timeAccept(python, graph, out, envelopesFile, floodFile, process.env);
    if (result.compiled) throw new Error(`${python} imported a compiled seam_handoff where the module vendors the runtime's source`);
    const ns = result.median;
    data[graph.stem] = { ...result, bytes: Buffer.byteLength(JSON.stringify(base, null, 2)) };
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
    if (flood !== undefined) rows.push(floodRow(graph.label, result, flood.bytes));
    if (!compiled) continue;
    // The module without the runtime's source beside it imports the compiled build from PYTHONPATH.
    const compiledOut = `${OUT}${graph.stem}-compiled/`;
    compile(graph, compiledOut, false);
    const fast = timeAccept(python, graph, compiledOut, envelopesFile, floodFile, { ...process.env, PYTHONPATH: COMPILED_SITE });
    if (!fast.compiled) throw new Error(`${python} imported an interpreted seam_handoff with PYTHONPATH=${COMPILED_SITE}: rebuild it (npm run build:python-compiled)`);
    data[`${graph.stem}_compiled`] = fast;
    const cns = fast.median;
    rows.push(
      row(`${graph.label}, compiled runtime (mypyc): accept() vs fastjsonschema`, fmtNs(cns.accept), fmtNs(cns.fastjsonschema), {
        ratio: cns.accept / cns.fastjsonschema,
        target: { op: "<=", value: 1 },
      }),
      row(`${graph.label}, compiled runtime (mypyc): accept() without a duplicate store vs fastjsonschema`, fmtNs(cns.accept_no_store), fmtNs(cns.fastjsonschema), {
        ratio: cns.accept_no_store / cns.fastjsonschema,
      }),
    );
    if (flood !== undefined) rows.push(floodRow(`${graph.label}, compiled runtime (mypyc)`, fast, flood.bytes));
  }
  return {
    title: `Python target (Python ${Object.values(data)[0]?.python}, ns/op, median of ${ROUNDS} batches x ${POOL} envelopes; jsonschema ${POOL / 10})`,
    data,
    rows,
  };
}

runIfMain(import.meta.url, measurePython);
