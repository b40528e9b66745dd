import { describe, expect, it } from "vitest";
import { createEventLog, type EventSink } from "../../src/runtime/event-log.js";
import { HANDOFF_EVENT_VERSION, MAX_EVENT_REASONS, type HandoffEvent } from "../../src/runtime/handoff-event.js";
import { observeAccept, observeAcceptAsync } from "../../src/runtime/observe-accept.js";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";
import { checkedGraph, clone, readFixture, readJsonFixture, refundDesk } from "../emit/helpers.js";
import { graphModule } from "./graph-setup.js";

type Envelope = Record<string, any>;

const desk = graphModule(refundDesk());
const base = readJsonFixture("cases", "envelopes", "valid-delegate.json") as Envelope;
const NOW = Date.UTC(2026, 10, 29, 10, 5, 0);

/** An event log writing into an array, and the events parsed back from its lines. */
function collect(): { sink: EventSink; lines: string[]; events: () => HandoffEvent[] } {
  const lines: string[] = [];
  return { sink: { write: (text: string) => void lines.push(text) }, lines, events: () => lines.map((l) => JSON.parse(l) as HandoffEvent) };
}

function observed(sink: EventSink) {
  return observeAccept(desk.accept, { graph: desk.graph, edges: desk.edges, events: createEventLog(sink) });
}

function variant(edit: (e: Envelope) => void): Envelope {
  const e = clone(base);
  edit(e);
  return e;
}

describe("observeAccept: the handoff event", () => {
  it("describes an accepted handoff, field by field, in a fixed key order", () => {
    const log = collect();
    const accept = observed(log.sink);
    const result = accept(base, { me: "billing", now: () => NOW }, { sentAt: NOW - 1500, sizeBytes: 812 });
    expect(result.ok).toBe(true);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]?.endsWith("}\n")).toBe(true);
    const [event] = log.events();
    expect(event).toEqual({
      event: "seam.handoff",
      v: HANDOFF_EVENT_VERSION,
      at: "2026-11-29T10:05:00.000Z",
      graph: "refund_desk",
      handoff_id: "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39",
      task_id: "refund-2026-11-0042",
      producer: "triage",
      receiver: "billing",
      edge: "delegate",
      status: null,
      envelope_version: "1.3.0",
      latency_ms: 1500,
      ingest_ms: event?.ingest_ms,
      verdict: "accepted",
      route: "proceed",
      size_bytes: 812,
      hop_index: 1,
      hop_limit: 8,
      reasons: [],
      reasons_total: 0,
      branch: null,
      join: null,
    });
    expect(Object.keys(event as object)).toEqual([
      "event", "v", "at", "graph", "handoff_id", "task_id", "producer", "receiver", "edge", "status", "envelope_version",
      "latency_ms", "ingest_ms", "verdict", "route", "size_bytes", "hop_index", "hop_limit", "reasons", "reasons_total", "branch", "join",
    ]);
    expect(event?.ingest_ms).toBeGreaterThanOrEqual(0);
  });

  it("takes the latency from the latest provenance time and the size from the JSON text when the service gives neither", () => {
    const log = collect();
    const envelope = variant((e) => {
      e["provenance"].push({ agent: "triage", action: "checked the order", at: "2026-11-29T10:04:58.250Z", status: "verified" });
    });
    observed(log.sink)(envelope, { me: "billing", now: () => NOW });
    const [event] = log.events();
    expect(event?.latency_ms).toBe(1750);
    expect(event?.size_bytes).toBe(Buffer.byteLength(JSON.stringify(envelope)));
  });

  it("has no latency when neither the service nor the provenance gives a start", () => {
    const log = collect();
    observed(log.sink)({ handoff_id: 7 }, { me: "billing", now: () => NOW });
    expect(log.events()[0]?.latency_ms).toBeNull();
  });

  it("lists a rejection's reasons as (path, rule) without messages", () => {
    const log = collect();
    const envelope = variant((e) => {
      e["status"] = "blocked";
      e["from_agent"]["role"] = "worker";
      delete e["budget"];
    });
    const result = observed(log.sink)(envelope, { me: "billing", now: () => NOW });
    expect(result.ok).toBe(false);
    const [event] = log.events();
    expect(event?.verdict).toBe("rejected");
    expect(event?.route).toBe("repair");
    expect(event?.status).toBe("blocked");
    expect(event?.reasons).toEqual([
      { path: "/budget", rule: "required" },
      { path: "/from_agent/role", rule: "role-mismatch" },
    ]);
    expect(event?.reasons_total).toBe(2);
  });

  it("marks a redelivery as a duplicate", () => {
    const log = collect();
    const accept = observed(log.sink);
    const seen = createMemorySeenStore();
    accept(base, { me: "billing", seen, now: () => NOW });
    accept(base, { me: "billing", seen, now: () => NOW });
    expect(log.events().map((e) => [e.verdict, e.route])).toEqual([
      ["accepted", "proceed"],
      ["duplicate", "discard"],
    ]);
  });

  it("marks a handoff accepted with warnings on an observe edge as observed, with the warnings as reasons", () => {
    // The refund desk with its last edge observed: refunds -> notifier warns instead of refusing.
    const text = readFixture("cases", "envelopes", "graph.seam").replace("transfer refunds -> notifier", "transfer refunds -> notifier observe");
    const module = graphModule(checkedGraph(text));
    const log = collect();
    const accept = observeAccept(module.accept, { graph: module.graph, edges: module.edges, events: createEventLog(log.sink) });
    const envelope = variant((e) => {
      e["hop"] = { index: 2, limit: 8, path: ["triage", "refunds", "notifier"] };
      e["from_agent"] = { id: "refunds", role: "worker" };
      e["to_agent"] = { id: "notifier", role: "peer" };
      e["open_questions"] = [{ question: "which order?", blocking: true }];
    });
    const result = accept(envelope, { me: "notifier" });
    if (!result.ok) throw new Error(`expected the observe edge to accept: ${JSON.stringify(result.rejection.reasons)}`);
    const [event] = log.events();
    expect(event?.verdict).toBe("observed");
    expect(event?.edge).toBe("transfer");
    expect(event?.hop_limit).toBe(8);
    expect(event?.reasons.length).toBeGreaterThan(0);
    expect(event?.reasons).toEqual(result.record.warnings.map(({ path, rule }) => ({ path, rule })));
  });

  it("gives no edge for a pair the graph does not join", () => {
    const log = collect();
    observed(log.sink)(variant((e) => (e["from_agent"] = { id: "notifier", role: "peer" })), { me: "billing" });
    expect(log.events()[0]?.edge).toBeNull();
  });
});

describe("observeAccept: hostile text stays bounded and escaped", () => {
  it("escapes control characters and cuts long ids, one line per event", () => {
    const log = collect();
    const envelope = variant((e) => {
      e["task_id"] = `evil\u001b]0;pwned\u0007\n{"event":"forged"}${"x".repeat(5000)}`;
      e["from_agent"]["id"] = "\u0000\ud800";
    });
    observed(log.sink)(envelope, { me: "billing" });
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]?.split("\n")).toHaveLength(2);
    const [event] = log.events();
    // Cut after 200 code points (33 before the x's), then escaped; the rest is counted.
    expect(event?.task_id).toBe(`evil\\u001b]0;pwned\\u0007\\n{"event":"forged"}${"x".repeat(167)}… (4833 more characters)`);
    expect(event?.producer).toBe("\\u0000\\ud800");
  });

  it("keeps at most 32 reasons and counts them all", () => {
    const log = collect();
    const envelope = variant((e) => {
      // Two rules of 20 each: a verdict lists at most 20 reasons of one rule.
      for (let i = 0; i < 20; i++) e[`extra_${i}`] = i;
      e["open_questions"] = Array.from({ length: 20 }, (_, i) => ({ question: `q${i}`, blocking: true }));
    });
    observed(log.sink)(envelope, { me: "billing" });
    const [event] = log.events();
    expect(event?.reasons).toHaveLength(MAX_EVENT_REASONS);
    expect(event?.reasons_total).toBe(40);
    expect(event?.reasons[0]).toEqual({ path: "/extra_0", rule: "additional-property" });
  });

  it("describes an envelope whose getters throw without throwing itself", () => {
    const log = collect();
    const hostile = {
      get handoff_id(): string {
        throw new Error("boom");
      },
    };
    const result = observed(log.sink)(hostile, { me: "billing" });
    expect(result.ok).toBe(false);
    const [event] = log.events();
    expect(event?.handoff_id).toBeNull();
    expect(event?.verdict).toBe("rejected");
    expect(event?.reasons).toEqual([{ path: "", rule: "unreadable-envelope" }]);
  });

  it("does not let a sink that throws reach the caller, and counts the loss", () => {
    const events = createEventLog({
      write() {
        throw new Error("disk full");
      },
    });
    const accept = observeAccept(desk.accept, { graph: desk.graph, edges: desk.edges, events });
    expect(accept(base, { me: "billing" }).ok).toBe(true);
    expect(events.failures).toBe(1);
  });

  it("reports nothing and returns accept's verdict unchanged when no log or telemetry is given", () => {
    const accept = observeAccept(desk.accept, { graph: desk.graph, edges: desk.edges });
    expect(accept(base, { me: "billing", now: () => NOW })).toEqual(desk.accept(base, { me: "billing", now: () => NOW }));
  });
});

describe("observeAcceptAsync", () => {
  it("reports a verdict reached asynchronously, timing the whole call", async () => {
    const log = collect();
    const slow = async (envelope: unknown, options: { me: string; now?: () => number }) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return desk.accept(envelope, options);
    };
    const accept = observeAcceptAsync(slow, { graph: desk.graph, edges: desk.edges, events: createEventLog(log.sink) });
    const result = await accept(base, { me: "billing", now: () => NOW }, { sentAt: NOW - 10 });
    expect(result.ok).toBe(true);
    const [event] = log.events();
    expect(event?.verdict).toBe("accepted");
    expect(event?.latency_ms).toBe(10);
    expect(event?.ingest_ms).toBeGreaterThanOrEqual(15);
  });

  it("passes a failing store's rejection on and reports nothing", async () => {
    const log = collect();
    const failing = async (): Promise<never> => {
      throw new Error("store down");
    };
    const accept = observeAcceptAsync(failing, { graph: desk.graph, edges: desk.edges, events: createEventLog(log.sink) });
    await expect(accept(base, { me: "billing" })).rejects.toThrow("store down");
    expect(log.lines).toEqual([]);
  });
});
