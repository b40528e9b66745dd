/**
 * The Python runtime's handoff events against the JavaScript runtime's: the same deliveries,
 * through observe_accept() and observeAccept() with one clock, give the same records (all but
 * the measured ingest_ms), and `seam report` reads the Python log.
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { toEdgeInfos, toGraphInfo } from "../../src/emit/graph-data.js";
import { addGraphSchemas } from "../../src/emit/schema-compiler.js";
import { createEventLog } from "../../src/runtime/event-log.js";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";
import { observeAccept } from "../../src/runtime/observe-accept.js";
import { createFakeIo } from "../cli/fake-io.js";
import { clone, makeTempDir, projectRoot, readFixture, refundDesk } from "../emit/helpers.js";

const VENV_PYTHON = join(projectRoot, ".venv", "bin", "python");
const ready = existsSync(VENV_PYTHON);
const NOW_MS = 1_764_410_600_000;

const valid = JSON.parse(readFixture("cases", "envelopes", "valid-delegate.json")) as Record<string, unknown>;
const deliveries = [{ ...clone(valid), handoff_id: "not-a-uuid" }, { ...clone(valid), goal: undefined, status: "blocked\u2028" }, valid, valid].map((e) =>
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
    expect(python.map((event) => event.verdict)).toEqual(["rejected", "rejected", "accepted", "duplicate"]);
    expect(python).toEqual(withoutTiming(lines.join("")));
  });

  it("are read by seam report", async () => {
    const dir = makeTempDir("py-report");
    writeFileSync(join(dir, "events.jsonl"), result?.stdout ?? "");
    const io = createFakeIo(dir);
    expect(await run(["report", "--format", "json", "events.jsonl"], io)).toBe(0);
    const report = JSON.parse(io.out()) as { handoffs: number; verdicts: Record<string, number> };
    expect(report.handoffs).toBe(4);
    expect(report.verdicts).toEqual({ accepted: 1, observed: 0, rejected: 2, duplicate: 1 });
  });
});
