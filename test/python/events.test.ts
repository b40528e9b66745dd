/**
 * The Python runtime's handoff events against the JavaScript runtime's: the same deliveries,
 * through observe_accept() and observeAccept() with one clock, give the same records (all but
 * the measured ingest_ms), and `seam report` reads the Python log. Deliveries whose JSON text
 * writes whole numbers as floats (1.0, 1e0), which JSON.parse and Ajv read as the integers they
 * are, give both the same verdicts and byte-identical records.
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { readEventLine } from "../../src/report/read-event.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { toAgentInfos, toEdgeInfos, toGraphInfo } from "../../src/emit/graph-data.js";
import { addGraphSchemas } from "../../src/emit/schema-compiler.js";
import { createEnvelopeBuilder } from "../../src/runtime/envelope-builder.js";
import { createEventLog } from "../../src/runtime/event-log.js";
import { parseEnvelope } from "../../src/runtime/parse-envelope.js";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";
import { observeAccept } from "../../src/runtime/observe-accept.js";
import { createFakeIo } from "../cli/fake-io.js";
import { clone, makeTempDir, removeTempDirs, projectRoot, readFixture, refundDesk } from "../emit/helpers.js";

const VENV_PYTHON = join(projectRoot, ".venv", "bin", "python");
const ready = existsSync(VENV_PYTHON);
const NOW_MS = 1_764_410_600_000;

const valid = JSON.parse(readFixture("cases", "envelopes", "valid-delegate.json")) as Record<string, unknown>;
/** Refused at the hop limit: its event carries an index far past the limit, which seam report must read. */
const pastLimit = { ...clone(valid), handoff_id: "7c1e0b52-3f4a-4d8e-9b61-5a2c0e9d4f17", hop: { ...(valid["hop"] as object), index: 1_000_000 } };
const deliveries = [{ ...clone(valid), handoff_id: "not-a-uuid" }, { ...clone(valid), goal: undefined, status: "blocked\u2028" }, valid, valid, pastLimit].map((e) =>
  JSON.parse(JSON.stringify(e)),
);

const SCRIPT = `
import io, json, sys
sys.path.insert(0, sys.argv[1])
import refund_desk_validators as desk
from seam_handoff.events import EventLog
from seam_handoff.observe import observe_accept
sink = io.StringIO()
accept = observe_accept(desk.accept, graph=desk.GRAPH, edges=desk.EDGES, events=EventLog(sink))
seen = desk.create_memory_seen_store()
for envelope in json.loads(sys.stdin.read()):
    accept(envelope, me="billing", seen=seen, now=lambda: ${NOW_MS} / 1000)
print(sink.getvalue(), end="")
`;

describe.skipIf(!ready)("Python handoff events", () => {
  const result = ready
    ? spawnSync(VENV_PYTHON, ["-c", SCRIPT, join(projectRoot, "python", "tests")], { input: JSON.stringify(deliveries), encoding: "utf8" })
    : undefined;

  it("are the JavaScript runtime's records for the same deliveries", () => {
    expect(result?.stderr).toBe("");
    const graph = refundDesk();
    const lines: string[] = [];
    const accept = observeAccept(createGraphAccept(graph).accept, {
      graph: toGraphInfo(graph),
      edges: toEdgeInfos(graph, addGraphSchemas(graph).edgeContracts),
      events: createEventLog({ write: (text: string) => lines.push(text) }),
    });
    const seen = createMemorySeenStore();
    for (const envelope of deliveries) accept(envelope, { me: "billing", seen, now: () => NOW_MS });
    const withoutTiming = (text: string) =>
      text
        .trim()
        .split("\n")
        .map((line) => ({ ...JSON.parse(line), ingest_ms: 0 }));
    const python = withoutTiming(result?.stdout ?? "");
    expect(python.map((event) => event.verdict)).toEqual(["rejected", "rejected", "accepted", "duplicate", "rejected"]);
    expect(python[4]).toMatchObject({ route: "escalate", hop_index: 1_000_000, hop_limit: 8 });
    expect(python).toEqual(withoutTiming(lines.join("")));
  });

  it("are read by seam report", async () => {
    const dir = makeTempDir("py-report");
    writeFileSync(join(dir, "events.jsonl"), result?.stdout ?? "");
    const io = createFakeIo(dir);
    expect(await run(["report", "--format", "json", "events.jsonl"], io)).toBe(0);
    const report = JSON.parse(io.out()) as { handoffs: number; verdicts: Record<string, number> };
    expect(report.handoffs).toBe(5);
    expect(report.verdicts).toEqual({ accepted: 1, observed: 0, rejected: 3, duplicate: 1 });
  });
});

const EDGE_SCRIPT = `
import io, json, math, sys
sys.path.insert(0, sys.argv[1])
import refund_desk_validators as desk
from seam_handoff.events import EventLog, HandoffDescriber
envelope = json.loads(sys.stdin.read())
result = desk.accept(envelope, me="billing")
describe = HandoffDescriber(desk.GRAPH, desk.EDGES).describe
sink = io.StringIO()
log = EventLog(sink)
for completed in (-62_167_219_200_000, -31_000_000_000_000, 253_402_300_799_999):
    log.write(describe(envelope, result, receiver="billing", completed_at_ms=completed, ingest_ms=0.0))
for sent in (math.nan, math.inf, -math.inf):
    log.write(describe(envelope, result, receiver="billing", completed_at_ms=${NOW_MS}, ingest_ms=0.0, sent_at_ms=sent))
print(sink.getvalue(), end="")
`;

describe.skipIf(!ready)("Python handoff events at the edges of their clocks", () => {
  it("are lines seam report reads: a four-digit year from 0 to 9999, a latency that is no number written null", () => {
    const result = spawnSync(VENV_PYTHON, ["-c", EDGE_SCRIPT, join(projectRoot, "python", "tests")], { input: JSON.stringify(valid), encoding: "utf8" });
    expect(result.stderr).toBe("");
    const lines = result.stdout.trim().split("\n");
    expect(lines.map((line) => readEventLine(line).kind)).toEqual(Array<string>(6).fill("event"));
    expect(lines.map((line) => (JSON.parse(line) as { at: string }).at).slice(0, 3)).toEqual(["0000-01-01T00:00:00.000Z", "0987-08-25T16:53:20.000Z", "9999-12-31T23:59:59.999Z"]);
    expect(lines.slice(3).map((line) => (JSON.parse(line) as { latency_ms: unknown }).latency_ms)).toEqual([null, null, null]);
  });
});

/**
 * JSON text of `value` with every whole number written as a float, `1.0`, or (`exponent`) as
 * `1e0`: what a producer whose numbers are floats sends. JSON.stringify never writes either.
 */
function floatText(value: unknown, exponent = false): string {
  if (typeof value === "number") return Number.isInteger(value) ? (exponent ? `${value}e0` : `${value}.0`) : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => floatText(item, exponent)).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${floatText(item, exponent)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

// Every numeric field of an envelope: hop.index and hop.limit, each budget counter, an artefact's
// byte_size and a decision's confidence; a provenance time that timestamp() * 1000 misses by a
// fraction of a millisecond.
const counters = { tokens: 1200, wall_clock_ms: 5000, tool_calls: 2, retries: 0, cost_micros: 300 };
const numeric = {
  ...clone(valid),
  hop: { index: 1, limit: 8, path: ["triage", "billing"] },
  budget: { consumed: counters, limit: { tokens: 40000, wall_clock_ms: 60000, tool_calls: 20, retries: 3, cost_micros: 90000 } },
  decisions: [{ id: "d1", statement: "the ledger decides", rationale: "it is the record", confidence: 1, reversible: true }],
  artefacts: [{ ref: "https://files.example/ledger.csv", media_type: "text/csv", role: "supporting", byte_size: 1024 }],
  provenance: [{ agent: "triage", action: "classified the request", at: "2004-01-10T20:08:45.509Z", status: "verified" }],
};
// Refused with reasons that quote numbers: the hop limit reached, a counter spent to its limit.
const atLimit = { ...clone(numeric), handoff_id: "7d0e6a52-1c4b-4f3e-8a9d-5b2c6e1f0a47", task_id: "refund-2026-11-0043", hop: { index: 8, limit: 8, path: ["triage", "billing"] } };
const spent = { ...clone(numeric), handoff_id: "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d", task_id: "refund-2026-11-0044", budget: { consumed: { ...counters, tool_calls: 20 }, limit: numeric.budget.limit } };
const floatDeliveries = [
  { me: "billing", text: floatText(numeric) },
  { me: "billing", text: floatText(numeric, true) },
  { me: "billing", text: floatText(atLimit, true) },
  { me: "billing", text: floatText(spent) },
  // Without a float: the same records as ever.
  { me: "billing", text: JSON.stringify({ ...clone(numeric), handoff_id: "5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c", task_id: "refund-2026-11-0045" }) },
];

const FLOAT_SCRIPT = `
import io, json, sys
sys.path.insert(0, sys.argv[1])
import refund_desk_validators as desk
from seam_handoff import parse_envelope
from seam_handoff.events import EventLog
from seam_handoff.observe import observe_accept
sink = io.StringIO()
accept = observe_accept(desk.accept, graph=desk.GRAPH, edges=desk.EDGES, events=EventLog(sink))
seen = desk.create_memory_seen_store()
verdicts = []
for delivery in json.loads(sys.stdin.read()):
    envelope = parse_envelope(delivery["text"]).envelope
    verdicts.append(accept(envelope, me=delivery["me"], seen=seen, now=lambda: ${NOW_MS} / 1000).to_dict())
received = parse_envelope(json.loads(sys.argv[2])).envelope
answer = desk.next_envelope(received, me="billing", to="triage", action="answers", status="ready", handoff_id="3f2e1d0c-9b8a-4765-8432-10fedcba9876", now=lambda: ${NOW_MS} / 1000)
print(json.dumps({"events": sink.getvalue(), "verdicts": verdicts, "hop": json.dumps(answer["hop"], separators=(",", ":"))}))
`;

afterAll(() => removeTempDirs());

describe.skipIf(!ready)("Python handoff events of whole numbers written as floats", () => {
  const result = ready
    ? spawnSync(VENV_PYTHON, ["-c", FLOAT_SCRIPT, join(projectRoot, "python", "tests"), JSON.stringify(floatText(numeric))], {
        input: JSON.stringify(floatDeliveries),
        encoding: "utf8",
      })
    : undefined;
  const python = JSON.parse(result?.stdout || "{}") as { events?: string; verdicts?: unknown[]; hop?: string };
  const graph = refundDesk();
  const edges = toEdgeInfos(graph, addGraphSchemas(graph).edgeContracts);
  const lines: string[] = [];
  const accept = observeAccept(createGraphAccept(graph).accept, { graph: toGraphInfo(graph), edges, events: createEventLog({ write: (text: string) => lines.push(text) }) });
  const seen = createMemorySeenStore();
  const verdicts = floatDeliveries.map(({ me, text }) => {
    const parsed = parseEnvelope(text);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.reasons));
    return accept(parsed.envelope, { me, seen, now: () => NOW_MS });
  });
  // The measured ingest_ms aside, byte for byte: a float written 1.0 where JavaScript writes 1 differs here.
  const untimed = (text: string) => text.replace(/"ingest_ms":[^,]+,/g, '"ingest_ms":0,');

  it("get the JavaScript runtime's verdicts", () => {
    expect(result?.stderr).toBe("");
    expect(verdicts.map((verdict) => (verdict.ok ? "accepted" : verdict.rejection.reasons.map((r) => r.rule).join(" ")))).toEqual([
      "accepted",
      "duplicate",
      "hop-limit-reached bad-hop-path hop-skipped",
      "budget-exhausted",
      "accepted",
    ]);
    expect(python.verdicts).toEqual(JSON.parse(JSON.stringify(verdicts)));
  });

  it("are the JavaScript runtime's records, byte for byte, hop_index and size_bytes included", () => {
    expect(untimed(python.events ?? "")).toBe(untimed(lines.join("")));
    const first = JSON.parse(lines[0] ?? "{}") as Record<string, unknown>;
    expect([first["hop_index"], first["size_bytes"], first["latency_ms"]]).toEqual([1, Buffer.byteLength(JSON.stringify(JSON.parse(floatText(numeric)))), NOW_MS - Date.parse("2004-01-10T20:08:45.509Z")]);
  });

  it("are handed on with the next whole hop index", () => {
    const builder = createEnvelopeBuilder({ graph: toGraphInfo(graph), agents: toAgentInfos(graph), edges });
    const parsed = parseEnvelope(floatText(numeric));
    if (!parsed.ok) throw new Error("not parsed");
    const answer = builder.next(parsed.envelope as never, { me: "billing", to: "triage", action: "answers", status: "ready", handoffId: "3f2e1d0c-9b8a-4765-8432-10fedcba9876", now: () => NOW_MS });
    expect(python.hop).toBe(JSON.stringify(answer.hop));
    expect(python.hop).toBe('{"index":2,"limit":8,"path":["triage","billing","triage"]}');
  });
});
