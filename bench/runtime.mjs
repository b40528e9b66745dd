// Runtime: the cost of the ingest check every agent service pays per envelope. accept() from a
// module emitted by `seam compile` (what services really import) runs on envelopes the size of a
// filled example, made by the module's own builders (bench/envelopes.mjs): the hop-2 handoff
// scanner -> reporter of bench/fixtures/graph.seam, with the task's hop 1 already in the shared
// ledger (as a service sees it), beside:
//   - the same accept() written in Python with jsonschema (bench/reference_accept.py),
//   - Ajv validating the bare envelope schema (the floor for any schema-first check),
//   - JSON.parse of the envelope text (every service pays it before any check).
// loopSignature() runs beside JSON.stringify + SHA-256 of the whole envelope (the naive hash).
// A hostile envelope at the 1 MiB limit, its decisions empty objects (bench/flood.mjs), is
// checked by accept() beside its edge validator alone: what listing 20 faults of a rule and
// counting the rest costs on top of the validator's 1.7 * 10^6 errors.
// Every measure: ns/op, median of 9 batches after 3 warm-up rounds, the batches of all measures
// interleaved round by round, over a pool of envelopes with unique handoff_id and task_id, so
// duplicate detection never short-circuits; accept() gets a fresh duplicate store per batch
// (the duplicate path is measured separately).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { FIRST_RECEIVER, loadCompiledModule, makeHandoffs, RECEIVER } from "./envelopes.mjs";
import { floodedEnvelope } from "./flood.mjs";
import { findPython, runPythonJson } from "./python.mjs";
import { progress, runIfMain, scaled } from "./section.mjs";
import { median, nsPerOp } from "./stats.mjs";
import { fmtNs, row } from "./table.mjs";

const OUT = fileURLToPath(new URL("./.out/", import.meta.url));
const ME = RECEIVER;
const POOL = scaled(2_000, 200);
const ROUNDS = scaled({ rounds: 9, warmupRounds: 3 }, { rounds: 1, warmupRounds: 1 });
/** The hostile envelope's size in bytes, and its rounds (each check takes a good part of a second). */
const FLOOD = scaled({ bytes: 1_048_576, rounds: 5, warmupRounds: 1 }, { bytes: 65_536, rounds: 1, warmupRounds: 0 });

const { envelopeSchema } = await import("../dist/core/envelope-schema.js");
const { createMemorySeenStore } = await import("../dist/runtime/index.js");

/**
 * A memory store that holds hop 1 of every task in `handoffs`, accepted at the scanner, so that
 * their hop-2 envelopes continue a known task.
 * @throws Error when a hop-1 envelope is refused
 */
export function ledgerWithFirstHops(compiled, handoffs) {
  const seen = createMemorySeenStore();
  for (const envelope of handoffs.first) {
    const verdict = compiled.accept(envelope, { me: FIRST_RECEIVER, canRead: () => true, seen });
    if (!verdict.ok) throw new Error(`the bench's hop-1 envelope is refused: ${JSON.stringify(verdict.rejection.reasons)}`);
  }
  return seen;
}

export async function measureRuntime() {
  mkdirSync(OUT, { recursive: true });
  const compiled = await loadCompiledModule();
  const handoffs = makeHandoffs(compiled, POOL);
  const envelopes = handoffs.next;
  const texts = envelopes.map((e) => JSON.stringify(e, null, 2));
  const canRead = () => true;

  // The measures below must take the paths they are named for: every envelope accepted, then
  // each one seen as a duplicate.
  const store = ledgerWithFirstHops(compiled, handoffs);
  for (const envelope of envelopes) {
    const verdict = compiled.accept(envelope, { me: ME, canRead, seen: store });
    if (!verdict.ok) throw new Error(`the bench's hop-2 envelope is refused: ${JSON.stringify(verdict.rejection.reasons)}`);
  }
  if (!envelopes.every((envelope) => compiled.accept(envelope, { me: ME, canRead, seen: store }).duplicate)) throw new Error("a repeat is not seen as a duplicate");

  const ajv = new Ajv2020.default({ allErrors: true });
  addFormats.default(ajv);
  const validate = ajv.compile(envelopeSchema);
  if (!validate(envelopes[0])) throw new Error(`Ajv refuses the fixture: ${JSON.stringify(validate.errors)}`);

  progress("runtime: accept(), Ajv, JSON.parse, loopSignature(), SHA-256, interleaved");
  let seen;
  const fresh = () => (seen = ledgerWithFirstHops(compiled, handoffs));
  const filled = () => {
    fresh();
    for (const envelope of envelopes) compiled.accept(envelope, { me: ME, canRead, seen });
  };
  const transfer = compiled.edges.find((e) => e.from === "scanner" && e.to === ME);
  const validateContract = transfer && compiled[`validate_${transfer.kind}__${transfer.from}__${transfer.to}`];
  if (typeof validateContract !== "function") throw new Error("no emitted validator for scanner -> reporter");
  const perBatch = nsPerOp(
    {
      accept: { op: (i) => compiled.accept(envelopes[i], { me: ME, canRead, seen }), setup: fresh },
      duplicate: { op: (i) => compiled.accept(envelopes[i], { me: ME, canRead, seen }), setup: filled },
      noStore: { op: (i) => compiled.accept(envelopes[i], { me: ME, canRead }) },
      contract: { op: (i) => validateContract(envelopes[i]) },
      ajv: { op: (i) => validate(envelopes[i]) },
      parse: { op: (i) => JSON.parse(texts[i]) },
      signature: { op: (i) => compiled.loopSignature(envelopes[i]) },
      sha: { op: (i) => createHash("sha256").update(JSON.stringify(envelopes[i])).digest("hex") },
    },
    { ops: POOL, ...ROUNDS },
  );
  const ns = Object.fromEntries(Object.entries(perBatch).map(([name, list]) => [name, median(list)]));

  progress("runtime: accept() of a flooded envelope beside its edge validator, interleaved");
  const flood = floodedEnvelope(envelopes[0], FLOOD.bytes);
  const floodVerdict = compiled.accept(flood.envelope, { me: ME, canRead });
  const more = floodVerdict.ok ? undefined : floodVerdict.rejection.reasons.find((r) => r.rule === "required" && r.message.startsWith("and "));
  validateContract(flood.envelope);
  const expectedMore = new Set(validateContract.errors.filter((e) => e.keyword === "required").map((e) => `${e.instancePath}/${e.params.missingProperty}`)).size - 20;
  if (more?.message.startsWith(`and ${expectedMore} more required reasons`) !== true) throw new Error(`the flooded envelope's verdict does not count ${expectedMore} more required reasons: ${more?.message}`);
  const floodBatches = nsPerOp(
    {
      accept: { op: () => compiled.accept(flood.envelope, { me: ME, canRead }) },
      contract: { op: () => validateContract(flood.envelope) },
    },
    { ops: 1, rounds: FLOOD.rounds, warmupRounds: FLOOD.warmupRounds },
  );
  const floodNs = { accept: median(floodBatches.accept), contract: median(floodBatches.contract) };

  progress("runtime: Python reference accept (jsonschema)");
  const python = findPython("jsonschema");
  const schemaFile = `${OUT}envelope-schema.json`;
  const envelopesFile = `${OUT}envelopes.json`;
  writeFileSync(schemaFile, JSON.stringify(envelopeSchema));
  writeFileSync(envelopesFile, JSON.stringify(envelopes));
  const py = runPythonJson(python, fileURLToPath(new URL("reference_accept.py", import.meta.url)), [
    schemaFile,
    envelopesFile,
    ME,
    scaled("5", "1"),
  ]);
  if (py.accepted !== py.total) throw new Error(`the Python reference refused ${py.total - py.accepted} envelopes`);
  const pythonNs = median(py.ns_per_op);

  const bytes = Buffer.byteLength(texts[0]);
  return {
    title: `Runtime (ns/op, median of ${ROUNDS.rounds} batches x ${POOL} envelopes of ${bytes} bytes)`,
    data: { envelopeBytes: bytes, nsPerOp: { ...ns, python: pythonNs }, perBatch, python: py, flood: { items: flood.items, bytes: flood.bytes, nsPerOp: floodNs, perBatch: floodBatches } },
    rows: [
      row("accept() vs Python jsonschema accept (speed-up)", fmtNs(ns.accept), fmtNs(pythonNs), {
        ratio: pythonNs / ns.accept,
        target: { op: ">=", value: 300 },
      }),
      row("accept() vs Ajv schema validation alone", fmtNs(ns.accept), fmtNs(ns.ajv), {
        ratio: ns.accept / ns.ajv,
        target: { op: "<=", value: 1.3 },
      }),
      row("accept() vs JSON.parse of the same text", fmtNs(ns.accept), fmtNs(ns.parse), {
        ratio: ns.accept / ns.parse,
        target: { op: "<=", value: 1 },
      }),
      row("accept() without a duplicate store vs Ajv alone", fmtNs(ns.noStore), fmtNs(ns.ajv), { ratio: ns.noStore / ns.ajv }),
      row("accept() of a repeated handoff_id vs Ajv alone", fmtNs(ns.duplicate), fmtNs(ns.ajv), {
        ratio: ns.duplicate / ns.ajv,
      }),
      row("emitted edge validator alone (scanner -> reporter) vs Ajv alone", fmtNs(ns.contract), fmtNs(ns.ajv), {
        ratio: ns.contract / ns.ajv,
      }),
      row("loopSignature() vs JSON.stringify + SHA-256", fmtNs(ns.signature), fmtNs(ns.sha), {
        ratio: ns.signature / ns.sha,
        target: { op: "<=", value: 2 },
      }),
      row(`accept() of a ${flood.bytes}-byte envelope of ${flood.items} empty decisions vs its edge validator alone`, fmtNs(floodNs.accept), fmtNs(floodNs.contract), {
        ratio: floodNs.accept / floodNs.contract,
      }),
    ],
  };
}

runIfMain(import.meta.url, measureRuntime);
