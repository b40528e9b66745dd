/**
 * The handoff event log: each {@link HandoffEvent} as one line of JSON (JSON Lines), written to
 * a sink the service chooses, by default the process's standard output (where a container
 * platform collects logs). `seam report` reads such logs back.
 */
import { handoffEventLine, type HandoffEvent } from "./handoff-event.js";

/**
 * The method of an event log made by {@link createEventLog} that writes an event fresh from the
 * describer, which nothing else has touched ({@link handoffEventLine} gives its line): what
 * `observeAccept` calls. Not part of {@link EventLog}: a log of the service's own need not have it.
 */
export const WRITE_DESCRIBED: unique symbol = Symbol("seam.writeDescribed");

/** An event log that may have the {@link WRITE_DESCRIBED} method. */
export type DescribedEventLog = EventLog & { readonly [WRITE_DESCRIBED]?: (event: HandoffEvent) => void };

/** Anything with `write(text)`: a `fs.WriteStream`, `process.stdout`, a socket, a test array. */
export interface EventSink {
  write(text: string): unknown;
}

/** Writes handoff events, one JSON line each. */
export interface EventLog {
  /**
   * Writes one event as one line. Never throws: a sink that throws loses that line (the handoff
   * itself is not affected) and the error is counted in {@link EventLog.failures}.
   */
  write(event: HandoffEvent): void;
  /** How many writes the sink refused by throwing. */
  readonly failures: number;
}

/**
 * Creates an event log on `sink`. Lines are written as they come; a stream that buffers (a file)
 * keeps them in memory until written, as Node streams do, so give a slow sink its own process
 * or a file, not a network round trip per line.
 *
 * @param sink - where lines go (default `process.stdout`)
 */
export function createEventLog(sink: EventSink = process.stdout): DescribedEventLog {
  let failures = 0;
  return {
    write(event) {
      try {
        // JSON.stringify escapes every control character and lone surrogate: one event, one line.
        sink.write(`${JSON.stringify(event)}\n`);
      } catch {
        failures++;
      }
    },
    [WRITE_DESCRIBED](event: HandoffEvent): void {
      try {
        sink.write(handoffEventLine(event));
      } catch {
        failures++;
      }
    },
    get failures() {
      return failures;
    },
  };
}
