// Types of bench/gen-events.mjs, for the tests (the bench itself is plain ESM JS).
import type { HandoffEvent } from "../src/runtime/handoff-event.js";

/** Yields `events` handoff events of a simulated week of a refund desk, oldest first. */
export declare function generateEvents(options: { events: number; seed?: number }): Generator<HandoffEvent>;
/** Writes `events` generated events to `path` as JSON Lines. */
export declare function writeEventLog(path: string, options: { events: number; seed?: number }): Promise<void>;
