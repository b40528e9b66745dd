/**
 * Ingest with its handoff event: wraps a graph's `accept()` so that every call, whatever its
 * verdict, is described once ({@link HandoffEvent}) and handed to the event log and to
 * telemetry. `accept()` stays pure; this is the layer a service opts into.
 */
import type { Accept, AcceptOptions, AcceptResult } from "./accept.js";
import type { EventLog } from "./event-log.js";
import { createHandoffDescriber, type DescribedGraph, type HandoffEvent } from "./handoff-event.js";

/** When one ingest ran, in ms since the Unix epoch with sub-millisecond precision. */
export interface IngestTiming {
  readonly startedAt: number;
  readonly endedAt: number;
}

/** Something that records each ingest (telemetry: a span and metrics). Must not throw. */
export interface HandoffObserver {
  observe(event: HandoffEvent, timing: IngestTiming): void;
}

/** Options of {@link observeAccept}: the graph data plus where events go. */
export interface ObserveAcceptOptions extends DescribedGraph {
  /** The handoff event log; absent: no lines are written. */
  readonly events?: EventLog;
  /** Telemetry (see `loadTelemetry`); absent: no spans or metrics. */
  readonly telemetry?: HandoffObserver;
}

/** What a service knows about a delivery beyond the envelope. */
export interface DeliveryOptions extends AcceptOptions {
  /** When the producer finished, ms since the Unix epoch (e.g. the queue message's timestamp): the start of the handoff latency. */
  readonly sentAt?: number;
  /** The envelope's size as received, in bytes (the request body's length); measured from the envelope when absent. */
  readonly sizeBytes?: number;
}

/** `accept()` that also reports each handoff; same verdicts, same errors. */
export type ObservedAccept = (envelope: unknown, options: DeliveryOptions) => AcceptResult;

/**
 * Wraps `accept` so each call is described and reported. The verdict is returned unchanged; the
 * event log and telemetry never throw into the caller. What `accept` throws (a misuse, a failing
 * store) is thrown on unchanged and nothing is reported: no verdict was reached.
 *
 * @param accept - a graph's `accept` (an emitted module's export)
 * @param options - the same graph's `graph` and `edges`, and the event log and/or telemetry
 */
export function observeAccept(accept: Accept, options: ObserveAcceptOptions): ObservedAccept {
  const describe = createHandoffDescriber(options);
  const { events, telemetry } = options;
  const origin = performance.timeOrigin;
  return function observedAccept(envelope, delivery) {
    const started = performance.now();
    const result = accept(envelope, delivery);
    const ended = performance.now();
    if (events === undefined && telemetry === undefined) return result;
    const event = describe({
      envelope,
      result,
      receiver: typeof delivery?.me === "string" ? delivery.me : "",
      completedAt: delivery?.now === undefined ? Math.round(origin + ended) : delivery.now(),
      ingestMs: ended - started,
      sentAt: delivery?.sentAt,
      sizeBytes: delivery?.sizeBytes,
    });
    events?.write(event);
    telemetry?.observe(event, { startedAt: origin + started, endedAt: origin + ended });
    return result;
  };
}
