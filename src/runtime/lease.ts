/**
 * `commit()` and `release()` (and their async forms): the end of a leased claim. With a store
 * that leases claims (`leaseMs`), `accept()` holds an accepted handoff under the claim's token
 * (`record.lease`) until the service says how processing went, as a queue consumer deletes an
 * SQS message or `XACK`s a Redis Streams entry: `commit` once the handoff is processed (every
 * redelivery is then a duplicate), `release` when it will not be (the next delivery takes the
 * claim over at once, rather than when the lease runs out). A record whose `lease` is `null` was
 * committed when it was claimed: both calls answer `committed` without asking the store.
 */
import { readClock } from "./clock.js";
import type { AcceptanceRecord } from "./accept.js";
import type { AsyncSeenStore, SeenStore, SettleRequest, SettleResult } from "./seen-store.js";

/** Options of one `commit()` / `release()` call. */
export interface SettleOptions {
  /** The store `accept()` claimed on; with a lease it must have a `settle` method. */
  readonly seen: SeenStore;
  /** The clock, in ms since the Unix epoch (default `Date.now`). */
  readonly now?: () => number;
}

/** Options of one `commitAsync()` / `releaseAsync()` call: an asynchronous store allowed. */
export interface SettleAsyncOptions {
  readonly seen: AsyncSeenStore;
  readonly now?: () => number;
}

/** Builds the store's request from the acceptance record; `undefined` when the record holds no lease. */
function settleRequest(call: string, record: AcceptanceRecord, options: SettleOptions | SettleAsyncOptions, action: SettleRequest["action"]): SettleRequest | undefined {
  if (typeof record !== "object" || record === null || typeof record.handoff_id !== "string" || typeof record.task_id !== "string" || !("lease" in record)) {
    throw new TypeError(`${call}(record, options): record must be the acceptance record accept() returned (verdict.record)`);
  }
  const { seen } = options ?? {};
  if (typeof seen !== "object" || seen === null || typeof seen.claim !== "function") throw new TypeError(`${call}(record, options): options.seen must be the store accept() claimed on`);
  if (record.lease === null) return undefined;
  if (typeof seen.settle !== "function") throw new TypeError(`${call}(record, options): options.seen has no settle method, so it cannot hold the lease record.lease names: pass the store accept() claimed on`);
  const at = readClock(options.now, `${call}(record, options)`, "options.now");
  return { taskId: record.task_id, handoffId: record.handoff_id.toLowerCase(), producer: record.producer ?? null, token: record.lease.token, action, at };
}

const COMMITTED: SettleResult = Object.freeze({ outcome: "committed" });

function settleWith(call: string, action: SettleRequest["action"]) {
  return (record: AcceptanceRecord, options: SettleOptions): SettleResult => {
    const request = settleRequest(call, record, options, action);
    if (request === undefined) return COMMITTED;
    const answer = (options.seen.settle as NonNullable<SeenStore["settle"]>)(request);
    if (typeof (answer as { then?: unknown }).then === "function") throw new TypeError(`${call}(record, options): options.seen.settle returned a promise: use ${call}Async`);
    return answer;
  };
}

function settleAsyncWith(call: string, action: SettleRequest["action"]) {
  return async (record: AcceptanceRecord, options: SettleAsyncOptions): Promise<SettleResult> => {
    const request = settleRequest(call, record, options, action);
    if (request === undefined) return COMMITTED;
    return (options.seen.settle as NonNullable<AsyncSeenStore["settle"]>)(request);
  };
}

/**
 * Commits the claim of an accepted handoff: it is processed, and every redelivery is a duplicate
 * from now on. Idempotent.
 *
 * @returns `committed`; or `lost` when the lease ran out and another delivery took the claim
 *   over (`holder`), or the store forgot the task: the handoff is (or was) processed again there
 * @throws TypeError on a misuse (not a record, no store, a store without `settle`); what the store throws
 */
export const commit: (record: AcceptanceRecord, options: SettleOptions) => SettleResult = settleWith("commit", "commit");

/** {@link commit} over an asynchronous store (Redis): rejects with what the store rejects with (`StoreUnavailableError`: call it again). */
export const commitAsync: (record: AcceptanceRecord, options: SettleAsyncOptions) => Promise<SettleResult> = settleAsyncWith("commit", "commit");

/**
 * Releases the claim of an accepted handoff that will not be processed (the service is shutting
 * down, a dependency is out): the next delivery to this receiver takes the claim over at once.
 *
 * @returns `released`; `committed` when the claim was committed before (it stays committed);
 *   `lost` as for {@link commit}
 * @throws as {@link commit}
 */
export const release: (record: AcceptanceRecord, options: SettleOptions) => SettleResult = settleWith("release", "release");

/** {@link release} over an asynchronous store. */
export const releaseAsync: (record: AcceptanceRecord, options: SettleAsyncOptions) => Promise<SettleResult> = settleAsyncWith("release", "release");
