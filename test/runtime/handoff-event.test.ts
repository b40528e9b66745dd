import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { createHandoffDescriber, handoffEventLine, type HandoffEvent } from "../../src/runtime/handoff-event.js";
import { refundDesk } from "../emit/helpers.js";
import { mutatedEnvelope, validEnvelope } from "./envelope-arbitrary.js";
import { graphModule } from "./graph-setup.js";

const desk = graphModule(refundDesk());
const graph = refundDesk();

/** Any UTF-16 text, lone surrogates, quotes, backslashes and controls included. */
const anyText = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 8 }).map((units) => String.fromCharCode(...units)),
  fc.constantFrom('"', "\\", "\u2028", "\ud800", "\u0000", "a\u001fb"),
);
const text = fc.option(anyText, { nil: null });
const number = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(-0, 1e21, 5e-7, Number.NaN, Infinity, -Infinity, Number.MAX_VALUE));
const maybeNumber = fc.option(number, { nil: null });

/** Events with every field of HandoffEvent's type in the fixed key order. */
const events: fc.Arbitrary<HandoffEvent> = fc
  .record({
    at: anyText,
    graph: anyText,
    handoff_id: text,
    task_id: text,
    producer: text,
    receiver: anyText,
    edge: text,
    status: text,
    envelope_version: text,
    latency_ms: maybeNumber,
    ingest_ms: number,
    verdict: fc.constantFrom("accepted", "observed", "rejected", "duplicate" as const),
    route: anyText,
    size_bytes: maybeNumber,
    hop_index: maybeNumber,
    hop_limit: number,
    reasons: fc.array(fc.record({ path: anyText, rule: anyText }), { maxLength: 3 }),
    reasons_total: number,
    branch: text,
    join: fc.constantFrom("held", "fired", null),
  })
  .map((fields) => {
    const { at, graph: name, ...rest } = fields;
    return { event: "seam.handoff", v: 1, at, graph: name, ...rest } as HandoffEvent;
  });

describe("handoffEventLine", () => {
  it("writes JSON.stringify's bytes and a line feed for any event of the record's type", () => {
    fc.assert(
      fc.property(events, (event) => {
        expect(handoffEventLine(event)).toBe(`${JSON.stringify(event)}\n`);
      }),
      { numRuns: 5_000 },
    );
  });

  // The line remembers the last text of each repeating field (graph, agents, edge, status...):
  // runs of events drawn from a few of them hit and miss that memory in every order.
  it("writes JSON.stringify's bytes for runs of events that repeat some fields and change others", () => {
    fc.assert(
      fc.property(
        fc.array(events, { minLength: 1, maxLength: 4 }).chain((pool) =>
          fc.array(
            fc.tuple(fc.nat(pool.length - 1), fc.nat(pool.length - 1)).map(([a, b]) => {
              const base = pool[a] as HandoffEvent;
              const other = pool[b] as HandoffEvent;
              // Mixes two events field by field: one field changes while its neighbours repeat.
              return { ...base, producer: other.producer, status: other.status, route: other.route } as HandoffEvent;
            }),
            { minLength: 1, maxLength: 12 },
          ),
        ),
        (run) => {
          for (const event of run) expect(handoffEventLine(event)).toBe(`${JSON.stringify(event)}\n`);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("writes JSON.stringify's bytes for what the describer makes of any envelope and verdict", () => {
    const describe = createHandoffDescriber({ graph: desk.graph, edges: desk.edges });
    fc.assert(
      fc.property(fc.oneof(validEnvelope(graph), mutatedEnvelope(graph)), fc.option(fc.double(), { nil: undefined }), ({ envelope, me }, sentAt) => {
        const result = desk.accept(envelope, { me });
        const event = describe({ envelope, result, receiver: me, completedAt: Date.UTC(2026, 10, 29), ingestMs: 0.0123, sentAt });
        expect(handoffEventLine(event)).toBe(`${JSON.stringify(event)}\n`);
      }),
      { numRuns: 1_000 },
    );
  });
});

describe("the describer's handoff latency", () => {
  const describe = createHandoffDescriber({ graph: desk.graph, edges: desk.edges });
  const completedAt = Date.UTC(2026, 10, 29, 10, 5, 0);
  /** Digits of `width`, mostly from `min` to `max`, sometimes anything. */
  const digits = (min: number, max: number, width: number) =>
    fc.oneof({ arbitrary: fc.integer({ min, max }), weight: 5 }, { arbitrary: fc.integer({ min: 0, max: 10 ** width - 1 }), weight: 1 }).map((v) => String(v).padStart(width, "0"));
  /** Times of ISO 8601's shape with any digits (day 31 of February, hour 24...), and their near misses. */
  const at = fc.oneof(
    fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    fc
      .tuple(fc.oneof(digits(1900, 2100, 4), digits(0, 120, 4)), digits(1, 12, 2), digits(1, 31, 2), fc.constantFrom("T", "T", "t", " "), digits(0, 24, 2), digits(0, 59, 2), digits(0, 60, 2), fc.constantFrom("", ".250", ".5", ".1234"), fc.constantFrom("Z", "Z", "z", "+01:00", ""))
      .map(([y, mo, d, t, h, mi, s, f, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`),
    fc.string(),
  );

  it("is measured from the latest provenance time as Date.parse reads it", () => {
    fc.assert(
      fc.property(fc.array(at, { minLength: 1, maxLength: 3 }), (times) => {
        const envelope = { provenance: times.map((time) => ({ agent: "triage", at: time })) };
        const event = describe({ envelope, result: desk.accept(envelope, { me: "billing" }), receiver: "billing", completedAt, ingestMs: 0 });
        const parsed = times.map((time) => Date.parse(time)).filter((ms) => !Number.isNaN(ms));
        expect(event.latency_ms).toBe(parsed.length === 0 ? null : completedAt - Math.max(...parsed));
      }),
      { numRuns: 5_000 },
    );
  });
});
