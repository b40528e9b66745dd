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

/** What a service knows about a delivery beyond the envelope, for an asynchronous accept. */
export type AsyncDeliveryOptions<O> = O & {
  /** When the producer finished, ms since the Unix epoch: the start of the handoff latency. */
  readonly sentAt?: number;
  /** The envelope's size as received, in bytes; measured from the envelope when absent. */
  readonly sizeBytes?: number;
};

/** `acceptAsync()` that also reports each handoff; same verdicts, same errors. */
export type ObservedAcceptAsync<O> = (envelope: unknown, options: AsyncDeliveryOptions<O>) => Promise<AcceptResult>;

/** The options every accept takes and the reporter reads. */
interface Receiving {
  readonly me: string;
  readonly now?: () => number;
}

/** Describes one finished call and hands it to the log and telemetry; `undefined` when neither is given. */
function createReporter(options: ObserveAcceptOptions): ((envelope: unknown, delivery: AsyncDeliveryOptions<Receiving>, result: AcceptResult, started: number, ended: number) => void) | undefined {
  const { events, telemetry } = options;
  if (events === undefined && telemetry === undefined) return undefined;
  const describe = createHandoffDescriber(options);
  const origin = performance.timeOrigin;
  return (envelope, delivery, result, started, ended) => {
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
  };
}

/**
 * The options `accept` itself takes: it refuses any it does not know (a misspelt option is a
 * caller's mistake), so `sentAt` and `sizeBytes` are taken off first.
 */
function acceptOptionsOf<O>(delivery: O): O {
  if (typeof delivery !== "object" || delivery === null || !("sentAt" in delivery || "sizeBytes" in delivery)) return delivery;
  const { sentAt, sizeBytes, ...rest } = delivery as O & { sentAt?: unknown; sizeBytes?: unknown };
  return rest as O;
}

/**
 * Wraps `accept` so each call is described and reported. The verdict is returned unchanged; the
 * event log and telemetry never throw into the caller. What `accept` throws (a misuse, a failing
 * store) is thrown on unchanged and nothing is reported: no verdict was reached.
 *
 * @param accept - a graph's `accept` (an emitted module's export)
 * @param options - the same graph's `graph` and `edges`, and the event log and/or telemetry
 */
export function observeAccept(accept: Accept, options: ObserveAcceptOptions): ObservedAccept {
  const report = createReporter(options);
  if (report === undefined) return (envelope, delivery) => accept(envelope, acceptOptionsOf(delivery));
  return function observedAccept(envelope, delivery) {
    const started = performance.now();
    const result = accept(envelope, acceptOptionsOf(delivery));
    report(envelope, delivery, result, started, performance.now());
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
  if (report === undefined) return (envelope, delivery) => acceptAsync(envelope, acceptOptionsOf(delivery));
  return async function observedAcceptAsync(envelope, delivery) {
    const started = performance.now();
    const result = await acceptAsync(envelope, acceptOptionsOf(delivery));
    report(envelope, delivery, result, started, performance.now());
    return result;
  };
}
