import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createReportBuilder, GROUP_CAPS, type HandoffReport } from "../../src/report/handoff-report.js";
import { readEvent } from "../../src/report/read-event.js";
import type { HandoffEvent } from "../../src/runtime/handoff-event.js";
import { fixturePath } from "../emit/helpers.js";

/** The events of a JSON Lines fixture (other records skipped). */
function eventsOf(...parts: string[]): HandoffEvent[] {
  return readFileSync(fixturePath(...parts), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => readEvent(JSON.parse(line)))
    .flatMap((read) => (read.kind === "event" ? [read.event] : []));
}

function reportOf(events: readonly HandoffEvent[]): HandoffReport {
  const builder = createReportBuilder();
  for (const event of events) builder.add(event);
  return builder.finish();
}

/** `actual` is within the sketch's 1% of `truth`. */
function near(actual: number | null, truth: number): void {
  expect(actual).not.toBeNull();
  expect(Math.abs((actual as number) - truth)).toBeLessThanOrEqual(truth * 0.01);
}

const known = reportOf(eventsOf("report", "known.jsonl"));

describe("handoff report of a known log", () => {
  it("counts handoffs and verdicts, and the period", () => {
    expect(known.handoffs).toBe(13);
    expect(known.verdicts).toEqual({ accepted: 8, observed: 1, rejected: 3, duplicate: 1 });
    expect(known.first_at).toBe("2026-11-23T10:00:00.000Z");
    expect(known.last_at).toBe("2026-11-26T10:02:00.000Z");
  });

  it("gives latency quantiles of accepted and observed handoffs within 1%, per edge", () => {
    // accepted/observed latencies: 100..900 ms; nearest rank p50 of 9 is the 5th: 500.
    near(known.latency.p50, 500);
    near(known.latency.p95, 900);
    expect(known.latency.max).toBe(900);
    expect(known.latency.count).toBe(9);
    const triage = known.latency.by_edge.find((e) => e.producer === "triage");
    expect(triage).toMatchObject({ receiver: "billing", kind: "delegate", count: 4, max: 700 });
    near(triage?.p50 ?? null, 400);
  });

  it("gives envelope sizes per hop index, duplicates left out", () => {
    expect(known.size_per_hop.map((h) => [h.hop_index, h.count, h.max])).toEqual([
      [1, 6, 4000],
      [2, 3, 4100],
      [3, 2, 4200],
      [4, 1, 4300],
    ]);
    near(known.size_per_hop[0]?.p50 ?? null, 1000);
  });

  it("derives hops per task from accepted handoffs per hop index, exactly", () => {
    expect(known.hop_counts).toEqual([
      {
        graph: "desk",
        hop_limit: 4,
        tasks: 4,
        p50: 2,
        p95: 3,
        max: 3,
        stopped_at_limit: 1,
        distribution: [
          { hops: 1, tasks: 1 },
          { hops: 2, tasks: 1 },
          { hops: 3, tasks: 2 },
        ],
      },
    ]);
  });

  it("rates rejections by producer (observed counts) and by field with array indices folded", () => {
    expect(known.rejections.by_producer).toEqual([
      { producer: "notifier", handoffs: 1, rejected: 1, observed: 0, rate: 1 },
      { producer: "billing", handoffs: 3, rejected: 0, observed: 1, rate: 1 / 3 },
      { producer: "triage", handoffs: 6, rejected: 2, observed: 0, rate: 1 / 3 },
      { producer: "refunds", handoffs: 2, rejected: 0, observed: 0, rate: 0 },
    ]);
    expect(known.rejections.by_field).toEqual([
      { producer: "triage", field: "/artefacts/*/ref", rule: "artefact-unreadable", count: 2 },
      { producer: "billing", field: "/open_questions/*/blocking", rule: "blocking-question", count: 1 },
      { producer: "notifier", field: "/hop/index", rule: "hop-limit-reached", count: 1 },
      { producer: "notifier", field: "/to_agent/id", rule: "unknown-edge", count: 1 },
      { producer: "triage", field: "/budget", rule: "required", count: 1 },
    ]);
  });

  it("distributes statuses per edge, and verdicts with the duplicate", () => {
    const triage = known.status_per_edge.find((e) => e.producer === "triage");
    expect(triage).toEqual({
      producer: "triage",
      receiver: "billing",
      kind: "delegate",
      handoffs: 6,
      statuses: [
        { status: "ready", count: 5 },
        { status: "(none)", count: 1 },
      ],
      verdicts: { accepted: 4, observed: 0, rejected: 2, duplicate: 1 },
    });
  });

  it("lists envelope versions in flight with when each was first and last seen", () => {
    expect(known.versions).toEqual([
      { envelope_version: "1.3.0", handoffs: 11, first_at: "2026-11-23T10:00:00.000Z", last_at: "2026-11-25T10:09:00.000Z" },
      { envelope_version: "1.2.0", handoffs: 1, first_at: "2026-11-24T10:06:00.000Z", last_at: "2026-11-24T10:06:00.000Z" },
    ]);
    expect(known.cut).toEqual([]);
  });
});

describe("handoff report in bounded memory", () => {
  it("folds producers past the cap into (other) and says so", () => {
    const [base] = eventsOf("report", "known.jsonl");
    const events = Array.from({ length: GROUP_CAPS.producers + 5 }, (_, i) => ({ ...base!, producer: `p${i}`, verdict: "rejected" as const }));
    const report = reportOf(events);
    expect(report.rejections.by_producer).toHaveLength(GROUP_CAPS.producers + 1);
    expect(report.rejections.by_producer.find((p) => p.producer === "(other)")?.handoffs).toBe(5);
    expect(report.cut).toContain("producers");
  });

  it("escapes control characters in names read from a log", () => {
    const [base] = eventsOf("report", "known.jsonl");
    const report = reportOf([{ ...base!, producer: "evil\u001b[2J" }]);
    expect(report.rejections.by_producer[0]?.producer).toBe("evil\\u001b[2J");
  });

  it("cuts a long name once, keeping the count of a name the runtime cut", () => {
    const [base] = eventsOf("report", "known.jsonl");
    const written = `${"p".repeat(200)}… (4800 more characters)`; // as observeAccept logs a 5000-character id
    expect(reportOf([{ ...base!, producer: written }]).rejections.by_producer[0]?.producer).toBe(written);
    expect(reportOf([{ ...base!, producer: "p".repeat(5000) }]).rejections.by_producer[0]?.producer).toBe(written);
  });
});
