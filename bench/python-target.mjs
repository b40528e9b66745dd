// Python target: what a Python agent service pays per envelope for the module that
// `seam compile --target python` writes, beside the two JSON Schema libraries such a service
// would otherwise use, on the same edge schema (the `<graph>.<from>-<kind>-<to>.schema.json` file):
//   - jsonschema's Draft202012Validator with format checking, every error collected,
//   - fastjsonschema (schema compiled to Python code; stops at the first error).
// Per graph (the help desk, and the refund desk of the envelope cases): accept() with a fresh
// duplicate store per batch, accept() without one, and the generated edge validator alone.
// Timed inside one Python process (bench/python_accept.py): ns/op, median of 9 interleaved batches.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { findPython, runPythonJson } from "./python.mjs";
import { progress, runIfMain, scaled } from "./section.mjs";
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
  }
  return {
    title: `Python target (ns/op, median of ${ROUNDS} batches x ${POOL} envelopes; jsonschema ${POOL / 10})`,
    data,
    rows,
  };
}

runIfMain(import.meta.url, measurePython);
