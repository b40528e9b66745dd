/**
 * Ingest with its handoff event: wraps a graph's `accept()` so that every call, whatever its
 * verdict, is described once ({@link HandoffEvent}) and handed to the event log and to
 * telemetry. `accept()` stays pure; this is the layer a service opts into.
 */
import type { AcceptOptions, AcceptResult } from "./accept.js";
import { WRITE_DESCRIBED, type DescribedEventLog, type EventLog } from "./event-log.js";
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

/**
 * What a service knows about a delivery beyond the envelope: the third argument of an observed
 * accept (kept apart from `accept`'s own options, which it checks strictly).
 */
export interface Delivery {
  /** When the producer finished, ms since the Unix epoch (e.g. the queue message's timestamp): the start of the handoff latency. */
  readonly sentAt?: number;
  /** The envelope's size as received, in bytes (the request body's length); measured from the envelope when absent. */
  readonly sizeBytes?: number;
}

/**
 * `accept()` that also reports each handoff; same verdicts, same errors. `O` is the wrapped
 * accept's options: a compiled module's `accept` types `me` as one of its graph's agents.
 */
export type ObservedAccept<O = AcceptOptions> = (envelope: unknown, options: O, delivery?: Delivery) => AcceptResult;

/** `acceptAsync()` that also reports each handoff; same verdicts, same errors. */
export type ObservedAcceptAsync<O> = (envelope: unknown, options: O, delivery?: Delivery) => Promise<AcceptResult>;

/** The options every accept takes and the reporter reads. */
interface Receiving {
  readonly me: string;
  readonly now?: () => number;
}

/** Describes one finished call and hands it to the log and telemetry; `undefined` when neither is given. */
function createReporter(
  options: ObserveAcceptOptions,
): ((envelope: unknown, receiving: Receiving, delivery: Delivery | undefined, result: AcceptResult, started: number, ended: number) => void) | undefined {
  const { events, telemetry } = options;
  if (events === undefined && telemetry === undefined) return undefined;
  const describe = createHandoffDescriber(options);
  const origin = performance.timeOrigin;
  // A log of createEventLog's writes the fresh event by its fixed-shape serializer.
  const writeDescribed = (events as DescribedEventLog | undefined)?.[WRITE_DESCRIBED];
  return (envelope, receiving, delivery, result, started, ended) => {
    const event = describe({
      envelope,
      result,
      receiver: receiving.me,
      completedAt: receiving.now === undefined ? Math.round(origin + ended) : receiving.now(),
      ingestMs: ended - started,
      sentAt: delivery?.sentAt,
      sizeBytes: delivery?.sizeBytes,
    });
    if (writeDescribed !== undefined) writeDescribed.call(events, event);
    else events?.write(event);
    telemetry?.observe(event, { startedAt: origin + started, endedAt: origin + ended });
  };
}

/**
 * Wraps `accept` so each call is described and reported. The verdict is returned unchanged; the
 * event log and telemetry never throw into the caller. What `accept` throws (a misuse, a failing
 * store) is thrown on unchanged and nothing is reported: no verdict was reached.
 *
 * @param accept - a graph's `accept` (an emitted module's export)
 * @param options - the same graph's `graph` and `edges`, and the event log and/or telemetry
 * @returns `(envelope, options, delivery?) => verdict`: `accept`'s arguments, then what the service knows of the delivery
 */
export function observeAccept<O extends Receiving = AcceptOptions>(
  accept: (envelope: unknown, options: O) => AcceptResult,
  options: ObserveAcceptOptions,
): ObservedAccept<O> {
  const report = createReporter(options);
  if (report === undefined) return (envelope, acceptOptions) => accept(envelope, acceptOptions);
  return function observedAccept(envelope, acceptOptions, delivery) {
    const started = performance.now();
    const result = accept(envelope, acceptOptions);
    report(envelope, acceptOptions, delivery, result, started, performance.now());
    return result;
  };
}

/**
 * {@link observeAccept} for `acceptAsync`: the span and the ingest time cover the whole call,
 * the asynchronous artefact checks and the store's claim included. A rejected promise (a store
 * that cannot be reached) is passed on unchanged and nothing is reported.
 *
 * @param acceptAsync - a graph's `acceptAsync` (an emitted module's export)
 * @param options - the same graph's `graph` and `edges`, and the event log and/or telemetry
 */
export function observeAcceptAsync<O extends Receiving>(
  acceptAsync: (envelope: unknown, options: O) => Promise<AcceptResult>,
  options: ObserveAcceptOptions,
): ObservedAcceptAsync<O> {
  const report = createReporter(options);
  if (report === undefined) return (envelope, acceptOptions) => acceptAsync(envelope, acceptOptions);
  return async function observedAcceptAsync(envelope, acceptOptions, delivery) {
    const started = performance.now();
    const result = await acceptAsync(envelope, acceptOptions);
    report(envelope, acceptOptions, delivery, result, started, performance.now());
    return result;
  };
}
