import { describe, expect, it } from "vitest";
import { formatReportPretty, MAX_CELL } from "../../../src/cli/format/report-pretty.js";
import { escapeUntrusted } from "../../../src/core/untrusted-text.js";
import { createReportBuilder } from "../../../src/report/handoff-report.js";
import { MAX_EVENT_TEXT, type HandoffEvent } from "../../../src/runtime/handoff-event.js";
import { sampleEvent } from "../../report/sample-event.js";

const base: HandoffEvent = sampleEvent();

/** The edge label of the status table's one row (the row starts with the label, then two spaces). */
function edgeLabel(event: HandoffEvent): string {
  const builder = createReportBuilder();
  builder.add(event);
  const out = formatReportPretty(builder.finish());
  const section = out.slice(out.indexOf("Status per edge"));
  const row = section.split("\n")[2] as string;
  return row.slice(2, row.indexOf("  ", 2));
}

describe("report pretty edge labels", () => {
  const long = "r".repeat(5000);
  // "triage -> " and 5000 r's: 5010 code points, MAX_CELL shown.
  const cutLabel = `triage -> ${"r".repeat(MAX_CELL - 10)}… (${5010 - MAX_CELL} more characters)`;

  it("cuts a long name once and counts what was dropped from the name as written", () => {
    expect(edgeLabel({ ...base, receiver: long })).toBe(cutLabel);
  });

  it("counts from the envelope's name when the runtime had already cut it in the log", () => {
    expect(edgeLabel({ ...base, receiver: escapeUntrusted(long, MAX_EVENT_TEXT) })).toBe(cutLabel);
  });

  it("stops a label at a cut producer and counts the receiver among what is dropped", () => {
    // 5000 p's and " -> billing": 5011 code points.
    expect(edgeLabel({ ...base, producer: "p".repeat(5000) })).toBe(`${"p".repeat(MAX_CELL)}… (${5011 - MAX_CELL} more characters)`);
  });

  it("leaves a label that fits alone", () => {
    expect(edgeLabel(base)).toBe("triage -> billing");
    expect(edgeLabel({ ...base, receiver: "r".repeat(MAX_CELL - 10) })).toBe(`triage -> ${"r".repeat(MAX_CELL - 10)}`);
  });
});
