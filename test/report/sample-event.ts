/** A handoff event as the runtimes log it, for the tests of what reads and shows event lines. */
import type { HandoffEvent } from "../../src/runtime/handoff-event.js";

/** An accepted first hop of the refund desk (hop limit 5), with `fields` replaced. */
export function sampleEvent(fields: Partial<HandoffEvent> = {}): HandoffEvent {
  return {
    event: "seam.handoff",
    v: 1,
    at: "2026-11-29T10:05:00.000Z",
    graph: "refund_desk",
    handoff_id: "h1",
    task_id: "t1",
    producer: "triage",
    receiver: "billing",
    edge: "delegate",
    status: null,
    envelope_version: "1.3.0",
    latency_ms: 1500,
    ingest_ms: 0.021,
    verdict: "accepted",
    route: "proceed",
    size_bytes: 812,
    hop_index: 1,
    hop_limit: 5,
    reasons: [],
    reasons_total: 0,
    branch: null,
    join: null,
    ...fields,
  };
}
