/**
 * What `accept()` remembers between deliveries: the handoff ids it accepted (seed 003's
 * idempotency token: a redelivery is recognised, not processed twice) and which receiver owns
 * each hop of each task (seed 000's single ownership: one owner at a time).
 *
 * A shared implementation (Redis, SQL) needs three things:
 * - `record` must be atomic: check the id, check the owner and write both in one step
 *   (Redis: a Lua script or `MULTI` around `SET seam:handoff:<id> 1 NX` and
 *   `SET seam:owner:<task_id>:<hop> <receiver> NX`; SQL: one transaction inserting into
 *   `handoffs(handoff_id PRIMARY KEY)` and `owners(task_id, hop_index, receiver,
 *   PRIMARY KEY (task_id, hop_index))`, where a key conflict means duplicate or owner-conflict);
 *   `hasHandoff` and `ownerOf` are only the cheap early answer, `record` is the authority.
 * - expiry: keys live as long as a task may (a TTL, or a sweep of finished tasks), or the store
 *   grows without bound.
 * - the interface is synchronous because `accept()` is (it sits on every ingest's hot path): a
 *   remote store answers `hasHandoff`/`ownerOf` from a local cache or a snapshot fetched for the
 *   task before the call, and makes `record` authoritative by running the atomic write right
 *   after `accept()` returns and treating a lost race as a duplicate.
 */

/** The result of {@link SeenStore.record}. */
export type RecordOutcome = "recorded" | "duplicate" | "owner-conflict";

/** Duplicate and ownership memory for `accept()`. */
export interface SeenStore {
  /** Whether a handoff with this `handoff_id` was recorded before. */
  hasHandoff(handoffId: string): boolean;
  /** The receiver recorded for hop `hopIndex` of task `taskId`, if any. */
  ownerOf(taskId: string, hopIndex: number): string | undefined;
  /**
   * Records an accepted handoff, atomically: `"duplicate"` (nothing written) when the id is known,
   * `"owner-conflict"` (nothing written) when another receiver owns this task's hop, else
   * `"recorded"` (the id is remembered and `receiver` owns the hop).
   */
  record(handoffId: string, taskId: string, hopIndex: number, receiver: string): RecordOutcome;
}

/**
 * A {@link SeenStore} held in this process's memory: for tests, `seam validate` and single-process
 * services. It never forgets, so a long-running service should use a store with expiry.
 */
export function createMemorySeenStore(): SeenStore {
  const handoffs = new Set<string>();
  // One map per task, so `task_id` strings are never concatenated with hop numbers.
  const owners = new Map<string, Map<number, string>>();
  return {
    hasHandoff: (handoffId) => handoffs.has(handoffId),
    ownerOf: (taskId, hopIndex) => owners.get(taskId)?.get(hopIndex),
    record(handoffId, taskId, hopIndex, receiver) {
      if (handoffs.has(handoffId)) return "duplicate";
      let hops = owners.get(taskId);
      const owner = hops?.get(hopIndex);
      if (owner !== undefined && owner !== receiver) return "owner-conflict";
      handoffs.add(handoffId);
      if (hops === undefined) {
        hops = new Map();
        owners.set(taskId, hops);
      }
      hops.set(hopIndex, receiver);
      return "recorded";
    },
  };
}
