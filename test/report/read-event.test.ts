import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readEvent, readEventLine } from "../../src/report/read-event.js";
import { createHandoffDescriber, MAX_EVENT_REASONS, type HandoffEvent } from "../../src/runtime/handoff-event.js";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";
import { clone, readJsonFixture, refundDesk } from "../emit/helpers.js";
import { mutatedEnvelope, validEnvelope } from "../runtime/envelope-arbitrary.js";
import { graphModule } from "../runtime/graph-setup.js";
import { sampleEvent } from "./sample-event.js";

const accepted: HandoffEvent = sampleEvent();
const rejected: HandoffEvent = { ...accepted, verdict: "rejected", route: "repair", reasons: [{ path: "/budget", rule: "required" }], reasons_total: 1 };
const NO_TIME = 'field "at" must be an RFC 3339 date-time such as 2026-11-29T10:05:00.000Z, without a leap second';

/** What readEvent says of `event` as a log line holds it: the problem, or "event". */
function problemOf(event: Record<string, unknown>): string {
  const read = readEvent(JSON.parse(JSON.stringify(event)));
  return read.kind === "bad" ? read.problem : read.kind;
}

describe("readEvent refuses what no runtime writes", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["an accepted hop at or past the limit", { ...accepted, hop_index: 1_000_000 }, 'field "hop_index" must be less than "hop_limit" (5) when "verdict" is "accepted"'],
    ["an observed hop at the limit", { ...rejected, verdict: "observed", route: "proceed", hop_index: 5 }, 'field "hop_index" must be less than "hop_limit" (5) when "verdict" is "observed"'],
    ["a hop limit of 0", { ...accepted, hop_index: 0, hop_limit: 0 }, 'field "hop_limit" must be a whole number from 1 to 9007199254740991'],
    ["an unknown route", { ...accepted, route: "nowhere" }, 'field "route" must be one of proceed, human_input, approval, failed, held when "verdict" is "accepted"'],
    ["a rejection's route on an acceptance", { ...accepted, route: "repair" }, 'field "route" must be one of proceed, human_input, approval, failed, held when "verdict" is "accepted"'],
    ["an acceptance's route on a rejection", { ...rejected, route: "proceed" }, 'field "route" must be one of repair, escalate, failed, discard, retry when "verdict" is "rejected"'],
    ["an unknown edge kind", { ...accepted, edge: "delegate|sideways" }, 'field "edge" must be one of delegate, return, transfer, several joined by "|", or null'],
    [
      "more reasons than a record lists",
      { ...rejected, reasons: Array.from({ length: MAX_EVENT_REASONS + 1 }, () => ({ path: "", rule: "required" })), reasons_total: 40 },
      'field "reasons" must list at most 32 reasons',
    ],
    ["fewer reasons in all than listed", { ...rejected, reasons_total: 0 }, 'field "reasons_total" must be at least the number of reasons listed, 1'],
    ["a branch on a refusal", { ...rejected, branch: "scatter/north" }, 'field "branch" must be null when "verdict" is "rejected"'],
    ["a join on a duplicate", { ...rejected, verdict: "duplicate", route: "discard", join: "fired" }, 'field "join" must be null when "verdict" is "duplicate"'],
    ["an at that is no date", { ...accepted, at: "not a date" }, NO_TIME],
    ["an at that is a date without a time, which Date.parse reads", { ...accepted, at: "2026-11-29" }, NO_TIME],
    ["an at without a time zone", { ...accepted, at: "2026-11-29T10:05:00" }, NO_TIME],
    ["an at on a day the month does not have", { ...accepted, at: "2026-02-30T10:05:00Z" }, NO_TIME],
    ["an at at a leap second, which has no JavaScript time", { ...accepted, at: "2026-12-31T23:59:60Z" }, NO_TIME],
    ["a negative ingest time", { ...accepted, ingest_ms: -1 }, 'field "ingest_ms" must be a number of milliseconds from 0 to 8640000000000000'],
  ])("%s", (_name, event, problem) => {
    expect(problemOf(event)).toBe(problem);
  });
});

describe("readEvent reads what runtimes write", () => {
  it.each<[string, Record<string, unknown>]>([
    ["an accepted hop just below the limit", { ...accepted, hop_index: 4 }],
    ["a refusal at the hop limit, whatever its index", { ...rejected, route: "escalate", hop_index: 1_000_000, reasons: [{ path: "/hop/index", rule: "hop-limit-reached" }] }],
    ["a refusal failed at the hop limit", { ...rejected, route: "failed", hop_index: 5 }],
    ["a duplicate", { ...rejected, verdict: "duplicate", route: "discard" }],
    ["an arrival held at a join", { ...accepted, route: "held", branch: "scatter/north", join: "held" }],
    ["a pair with two edge kinds", { ...accepted, edge: "delegate|transfer" }],
    ["a record from before fan-outs", (({ branch: _b, join: _j, ...rest }) => rest)(rejected)],
    ["an at with an offset and microseconds", { ...accepted, at: "2026-11-29T11:05:00.123456+01:00" }],
    ["a negative latency (the clocks disagree) and an ingest time of 0", { ...accepted, latency_ms: -250, ingest_ms: 0 }],
  ])("%s", (_name, event) => {
    expect(problemOf(event)).toBe("event");
  });

  it("reads back every event the describer makes of any envelope, at the hop limit and past it too", () => {
    const graph = refundDesk();
    const desk = graphModule(graph);
    const describe = createHandoffDescriber({ graph: desk.graph, edges: desk.edges });
    const limit = desk.graph.hopLimit;
    // Hop indexes from well below the limit to far past it, on otherwise valid envelopes.
    const atHop = fc.tuple(validEnvelope(graph), fc.integer({ min: 0, max: limit * 3 })).map(([{ envelope, me }, index]) => ({
      envelope: { ...envelope, hop: { ...(envelope["hop"] as object), index } },
      me,
    }));
    fc.assert(
      fc.property(fc.oneof(validEnvelope(graph), mutatedEnvelope(graph), atHop), fc.boolean(), ({ envelope, me }, twice) => {
        const seen = createMemorySeenStore();
        // A second delivery of the same envelope is a duplicate (or a refusal of its own).
        const results = [desk.accept(envelope, { me, seen }), ...(twice ? [desk.accept(envelope, { me, seen })] : [])];
        for (const result of results) {
          const event = describe({ envelope, result, receiver: me, completedAt: Date.UTC(2026, 10, 29), ingestMs: 0.0123 });
          expect(problemOf(event as unknown as Record<string, unknown>)).toBe("event");
        }
      }),
      { numRuns: 500 },
    );
  });

  it("reads the event of a delivery refused at the hop limit", () => {
    const graph = refundDesk();
    const desk = graphModule(graph);
    const envelope = clone(readJsonFixture("cases", "envelopes", "valid-delegate.json") as Record<string, any>);
    envelope.hop.index = 1_000_000;
    const result = desk.accept(envelope, { me: "billing" });
    expect(result.ok).toBe(false);
    const event = createHandoffDescriber({ graph: desk.graph, edges: desk.edges })({ envelope, result, receiver: "billing", completedAt: 0, ingestMs: 0 });
    expect([event.verdict, event.route, event.hop_index, event.hop_limit]).toEqual(["rejected", "escalate", 1_000_000, 8]);
    expect(problemOf(event as unknown as Record<string, unknown>)).toBe("event");
  });
});

describe("readEventLine", () => {
  const line = JSON.stringify(accepted);

  it("reads a line that is an event, and skips another record of a shared log, even one that repeats its own keys", () => {
    expect(readEventLine(line)).toEqual({ kind: "event", event: accepted });
    expect(readEventLine('{"event":"app","level":"info","level":"warn"}')).toEqual({ kind: "other" });
  });

  it.each<[string, string, string, number]>([
    ["text that is not JSON", "not json", "is not JSON: expected a value, found 'n'", 1],
    [
      "a key given twice in an event",
      line.replace('"graph":"refund_desk"', '"graph":"refund_desk","graph":"other"'),
      'has the key "graph" twice in one object (at /graph): JSON readers disagree on which value counts',
      line.indexOf('"graph"') + '"graph":"refund_desk",'.length + 1,
    ],
    [
      "a key given twice in a reason",
      JSON.stringify(rejected).replace('"rule":"required"', '"rule":"required","rule":"format"'),
      'has the key "rule" twice in one object (at /reasons/0/rule): JSON readers disagree on which value counts',
      JSON.stringify(rejected).indexOf('"rule":"required"') + '"rule":"required",'.length + 1,
    ],
    [
      "an event key given twice, which a reader keeping the first value takes for a handoff event",
      '{"event":"seam.handoff","event":"app"}',
      'has the key "event" twice in one object (at /event): JSON readers disagree on which value counts',
      25,
    ],
  ])("refuses %s at its column", (_name, text, problem, column) => {
    expect(readEventLine(text)).toEqual({ kind: "bad", problem, column });
  });
});
