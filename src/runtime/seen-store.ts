/**
 * What ingest remembers between deliveries, behind ONE atomic call: `claim`. Every delivery whose
 * header names it (a string `handoff_id` and `task_id`, an integer `hop.index`) is sent to the
 * store with the verdict the content checks reached, and the store answers whether the delivery
 * is new, a duplicate, or a hop another receiver owns. The claim is the only authority on
 * duplicates, replays and ownership: nothing is read from the store before it, so a store backed
 * by Redis or SQL decides each delivery in one round trip (a Lua script, one transaction) and two
 * replicas racing for the same hop cannot both win.
 *
 * The kinds of repeat (the idempotency-key idea of HTTP's `Idempotency-Key` header, IETF draft
 * `draft-ietf-httpapi-idempotency-key-header`, applied per handoff and per hop):
 * - the same `handoff_id` after it was accepted: a redelivery, `duplicate` (`of: "handoff"`);
 * - the same task and hop, accepted before by the same receiver, under a fresh `handoff_id`: a
 *   replay (a resumed step re-sent), `duplicate` (`of: "hop"`);
 * - the same task and hop, accepted before by another receiver: `owner-conflict`;
 * - anything after a rejection (same or fresh `handoff_id`): a retry, judged on its own. A
 *   rejected delivery owns nothing.
 * A task that resumes after a hop was accepted continues at the next hop (`hop.index + 1`, the
 * path extended), which is what tells a resumption apart from a replay.
 */

/** The edge a delivery travels, as the graph declares it. */
export interface ClaimEdge {
  readonly kind: "delegate" | "return" | "transfer";
  readonly from: string;
  readonly to: string;
}

/**
 * One delivery, as the store sees it: everything a store needs to decide it and to keep a ledger
 * of the task, so that one call (one round trip) suffices.
 */
export interface ClaimRequest {
  /** `handoff_id` of the envelope, in lower case (a UUID when the envelope is schema-valid). */
  readonly handoffId: string;
  /** `task_id` of the envelope. */
  readonly taskId: string;
  /** `hop.index`: a whole number, 0 or more. */
  readonly hopIndex: number;
  /** `from_agent.id`; `null` when the envelope names none. */
  readonly producer: string | null;
  /** The receiving agent (`options.me`). */
  readonly receiver: string;
  /** The graph's edge `producer -> receiver`; `null` when the graph has none. */
  readonly edge: ClaimEdge | null;
  /** What the content checks decided (`accepted` includes an `observe` edge's acceptance with warnings). */
  readonly verdict: "accepted" | "rejected";
  /** The time of the delivery (`options.now`), in milliseconds since the Unix epoch. */
  readonly at: number;
}

/** The earlier accepted delivery a duplicate repeats. */
export interface ClaimHolder {
  readonly handoffId: string;
  readonly receiver: string;
  /** When it was accepted, in milliseconds since the Unix epoch. */
  readonly at: number;
}

/**
 * The store's answer, a discriminated union on `outcome`. Stores may add fields to a variant
 * (a later ledger does); `accept()` reads only the fields named here.
 * - `claimed`: an accepted delivery is recorded; `receiver` now owns the task's hop.
 * - `noted`: a rejected delivery is recorded (for retry counts); nothing is owned.
 * - `duplicate`: nothing written; `of` says whether the `handoff_id` (a redelivery) or the task's
 *   hop to this receiver (a replay under a fresh id) was accepted before, by `holder`.
 * - `owner-conflict`: nothing written; `owner` accepted this task's hop before.
 */
export type ClaimResult =
  | { readonly outcome: "claimed" }
  | { readonly outcome: "noted" }
  | { readonly outcome: "duplicate"; readonly of: "handoff" | "hop"; readonly holder: ClaimHolder }
  | { readonly outcome: "owner-conflict"; readonly owner: string };

/**
 * A synchronous store, for `accept()`: `claim` decides and records one delivery atomically (see
 * the module comment for what counts as a duplicate). What it throws, `accept()` throws.
 */
export interface SeenStore {
  claim(request: ClaimRequest): ClaimResult;
}

/**
 * An asynchronous store, for `acceptAsync()` (Redis, SQL): the same contract as
 * {@link SeenStore}, answered by a promise. A synchronous store is also an asynchronous one.
 * A rejected promise is thrown by `acceptAsync()` (an unavailable store is not bad input).
 */
export interface AsyncSeenStore {
  claim(request: ClaimRequest): ClaimResult | PromiseLike<ClaimResult>;
}

interface HopOwner {
  readonly hopIndex: number;
  readonly handoffId: string;
  readonly receiver: string;
  readonly at: number;
}

/**
 * A store held in this process's memory, for tests, `seam validate` and single-process
 * services; it is both a {@link SeenStore} and an {@link AsyncSeenStore}. It never forgets, so a
 * long-running service should use a store with expiry.
 */
export function createMemorySeenStore(): SeenStore & AsyncSeenStore {
  const accepted = new Map<string, HopOwner>();
  // Per task, the owners of its hops: a short list (a task has at most its hop limit of hops),
  // cheaper to make and search than a map, and `task_id` is never concatenated with a number.
  const owners = new Map<string, HopOwner[]>();
  return {
    claim(request: ClaimRequest): ClaimResult {
      const earlier = accepted.get(request.handoffId);
      if (earlier !== undefined) return { outcome: "duplicate", of: "handoff", holder: holder(earlier) };
      const hops = owners.get(request.taskId);
      const owner = hops?.find((claim) => claim.hopIndex === request.hopIndex);
      if (owner !== undefined) {
        return owner.receiver === request.receiver
          ? { outcome: "duplicate", of: "hop", holder: holder(owner) }
          : { outcome: "owner-conflict", owner: owner.receiver };
      }
      if (request.verdict === "rejected") return { outcome: "noted" };
      const claim: HopOwner = { hopIndex: request.hopIndex, handoffId: request.handoffId, receiver: request.receiver, at: request.at };
      accepted.set(request.handoffId, claim);
      if (hops === undefined) owners.set(request.taskId, [claim]);
      else hops.push(claim);
      return { outcome: "claimed" };
    },
  };
}

function holder(claim: HopOwner): ClaimHolder {
  return { handoffId: claim.handoffId, receiver: claim.receiver, at: claim.at };
}
