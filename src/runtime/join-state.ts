/**
 * `joinState()` and `joinStateAsync()`: how a service learns that a task's join was given up on
 * when no further handoff arrives to say so (a timer at the join's deadline, a sweep). The store
 * answers, and acts on the join's policy once if this call is the first to find its deadline
 * passed or its condition impossible (`acts: true`): two replicas asking at once get one `acts`.
 */
import { readClock } from "./clock.js";
import { quoteUntrusted } from "../core/untrusted-text.js";
import type { AsyncSeenStore, JoinStateRequest, JoinStateResult, SeenStore } from "./seen-store.js";

/** Options of one `joinState()` call. Unknown keys are a `TypeError`. */
export interface JoinStateOptions {
  /** The store `accept()` claims on; it must have a `joinState` method. */
  readonly seen: SeenStore;
  /** The clock, in ms since the Unix epoch (default `Date.now`): the deadline is compared with it. */
  readonly now?: () => number;
}

/** Options of one `joinStateAsync()` call: as {@link JoinStateOptions}, with an asynchronous store allowed. */
export interface JoinStateAsyncOptions extends Omit<JoinStateOptions, "seen"> {
  readonly seen: AsyncSeenStore;
}

/**
 * A task's join: `none` (the task has no fan-out with a join, or the store does not know it);
 * `waiting` (the join waits, its deadline not passed and enough branches can still arrive);
 * `fired` (its condition was met); `expired` or `failed` (given up on; `acts` is `true` for the
 * one answer that acted on its policy). `deadline` is ISO 8601 (UTC), `null` without `within`;
 * `arrived`, `missing` and `ended` are branch ids.
 */
export type JoinReport =
  | { readonly state: "none" }
  | {
      readonly state: "waiting" | "fired" | "expired" | "failed";
      readonly agent: string;
      readonly policy: string;
      readonly acts: boolean;
      readonly arrived: readonly string[];
      readonly missing: readonly string[];
      readonly ended: readonly string[];
      readonly deadline: string | null;
    };

const OPTION_KEYS = new Set(["seen", "now"]);

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * Builds `joinState(taskId, { seen, now? })` and `joinStateAsync(...)`. Both throw a `TypeError`
 * for a misuse (a `taskId` that is not a non-empty string, no options, an unknown option, a store
 * without `joinState`, a clock that is not one, an answer that is not a join state; for
 * `joinState`, a store answering with a promise), a `RangeError` for a clock outside `Date`'s
 * range, and what the store throws.
 *
 * @param isoTime - formats ms since the Unix epoch as ISO 8601 (shared with `accept()`)
 */
export function createJoinState(isoTime: (ms: number) => string): {
  joinState: (taskId: string, options: JoinStateOptions) => JoinReport;
  joinStateAsync: (taskId: string, options: JoinStateAsyncOptions) => Promise<JoinReport>;
} {
  function request(call: string, taskId: unknown, options: unknown): JoinStateRequest {
    const misuse = (problem: string): TypeError => new TypeError(`${call}(taskId, options): ${problem}`);
    if (typeof taskId !== "string" || taskId === "") throw misuse("taskId must be the task_id of the task, a non-empty string");
    if (typeof options !== "object" || options === null) throw misuse("options must be an object such as { seen }");
    for (const key in options) if (!OPTION_KEYS.has(key)) throw misuse(`unknown option ${quoteUntrusted(key)}; the options are seen and now`);
    const { seen, now } = options as Record<string, unknown>;
    if (typeof seen !== "object" || seen === null || typeof (seen as { joinState?: unknown }).joinState !== "function") {
      throw misuse("options.seen must be the store accept() claims on, with a joinState(request) method, such as createMemorySeenStore()");
    }
    const at = readClock(now, `${call}(taskId, options)`, "options.now");
    return { taskId, at };
  }

  function report(call: string, answer: JoinStateResult): JoinReport {
    if (typeof answer !== "object" || answer === null) throw new TypeError(`${call}(taskId, options): options.seen.joinState returned ${answer === null ? "null" : typeof answer}, not a join state`);
    switch (answer.state) {
      case "none":
        return { state: "none" };
      case "waiting":
      case "fired":
      case "expired":
      case "failed":
        return {
          state: answer.state,
          agent: answer.join,
          policy: answer.policy,
          acts: "acts" in answer ? answer.acts : false,
          arrived: [...answer.arrived],
          missing: [...answer.missing],
          ended: [...answer.ended],
          deadline: answer.deadline === null ? null : isoTime(answer.deadline),
        };
      default:
        throw new TypeError(`${call}(taskId, options): options.seen.joinState returned an unknown state ${quoteUntrusted((answer as { state?: unknown }).state)}`);
    }
  }

  function joinState(taskId: string, options: JoinStateOptions): JoinReport {
    const req = request("joinState", taskId, options);
    const answer: unknown = (options.seen.joinState as NonNullable<SeenStore["joinState"]>)(req);
    if (isThenable(answer)) throw new TypeError("joinState(taskId, options): options.seen.joinState returned a promise: use joinStateAsync with an asynchronous store");
    return report("joinState", answer as JoinStateResult);
  }

  async function joinStateAsync(taskId: string, options: JoinStateAsyncOptions): Promise<JoinReport> {
    const req = request("joinStateAsync", taskId, options);
    return report("joinStateAsync", await (options.seen.joinState as NonNullable<AsyncSeenStore["joinState"]>)(req));
  }

  return { joinState, joinStateAsync };
}
