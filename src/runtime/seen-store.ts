/**
 * What ingest remembers between deliveries, behind ONE atomic call per delivery: `claim`. Every
 * delivery whose `task_id` is a string is sent to the store with the verdict the content checks
 * reached, and the store answers whether the delivery is new, a repeat, or out of turn for its
 * task. The claim is the only authority on duplicates, replays, ownership and the task ledger:
 * nothing is read from the store before it, so a store backed by Redis or SQL decides each
 * delivery in one round trip (a Lua script, one transaction) and two replicas racing for the same
 * hop cannot both win.
 *
 * The kinds of repeat (the idempotency-key idea of HTTP's `Idempotency-Key` header, IETF draft
 * `draft-ietf-httpapi-idempotency-key-header`, applied per handoff and per hop):
 * - the same `handoff_id` after it was accepted: a redelivery, `duplicate` (`of: "handoff"`);
 * - the task's latest accepted hop again, from the same producer to the same receiver, under a
 *   fresh `handoff_id`: a replay (a resumed step re-sent), `duplicate` (`of: "hop"`); an older
 *   hop sent again after the task moved on is a `custody` `reset`, never silently discarded;
 * - the same task and hop, accepted before by another receiver: `owner-conflict`;
 * - anything after a rejection (same or fresh `handoff_id`): a retry, judged on its own, and
 *   counted (below).
 *
 * The task ledger (per `task_id`): the hops accepted so far, the path they walked, the refusals
 * of the current round, and whether the task ended. The owner of a task is the receiver of its
 * last accepted hop; only the owner hands it on, at the next hop, along the recorded path
 * (`custody`). With a graph-wide store a task starts at hop 1: a task the ledger holds no
 * accepted hop for takes only its first hop (a later one is a `skip`, a lower one a `reset`), so
 * a task cannot be continued under a look-alike `task_id`, nor after it was forgotten. A task that
 * ended at a terminal (`finish`) takes no further handoff (`finished`).
 *
 * Refusals are counted per task and round, per producer. A task's round is the hop it awaits: it
 * begins at its first delivery or when its latest hop is accepted, and ends at the next accepted
 * hop, which clears the counts. Within a round, each producer with an edge of the graph to the
 * receiver (`request.edge` not null) has its own count, and every delivery over no edge of the
 * graph shares one: so one task holds at most (the graph's agents + 1) counts, whatever the
 * sender writes, and neither a new `hop.index` nor another producer's forgeries change a
 * producer's count. `attempt` is that count, this refusal included.
 *
 * Approvals (graphs of envelope 1.4 and later, `request.approval` not null): an accepted hop with
 * `status: waiting_review` leaves the task waiting for approval of that handoff; until a hop that
 * cites it in `approval.pending_handoff_id` is accepted (the resumption), every other hop of the
 * task is out of turn (`approval`). With none pending, an approval record must cite the task's
 * last accepted handoff (`approval-cite`, graph scope): an approval answers the handoff it
 * follows.
 *
 * A delivery whose `handoff_id` or `hop.index` is unusable (`null` in the request, always
 * `rejected`) is only counted: the store answers `finished` for an ended task, else `noted`.
 *
 * Claim leases (rule `lease-held`; a store created with a lease, `leaseMs`): a claim is a lease,
 * as a message received from an SQS queue is hidden for its visibility timeout and a Redis
 * Streams entry stays pending until `XACK`. The claim records the hop at once (ownership and
 * custody do not wait), under the request's `token`, a fresh one per claim attempt; the service
 * processes the handoff, then `settle`s it: `commit` (a redelivery is a `duplicate` from then
 * on) or `release` (the next delivery takes the claim over at once). While the lease is live, a
 * redelivery of the handoff to its receiver is `leased` (deliver again later), whichever replica
 * it reaches: replicas share the agent id, never the token. Once the lease ran out uncommitted,
 * the next such redelivery takes the claim over, atomically, under its own token (the old token
 * can no longer commit), provided it is the very envelope claimed (the same RFC 8785 digest):
 * other content under the `handoff_id` is a duplicate. A claim whose task moved on (its receiver handed the task on) or ended
 * counts as committed. Without a lease, or for a request without a token, a claim is committed
 * when it is made.
 */

import type { BudgetCounter } from "./checks/budget-exhausted.js";
import { envelopeDigest } from "./envelope-digest.js";

/** The edge a delivery travels, as the graph declares it. */
export interface ClaimEdge {
  readonly kind: "delegate" | "return" | "transfer";
  readonly from: string;
  readonly to: string;
}

/**
 * One delivery, as the store sees it: everything a store needs to decide it and to keep the
 * ledger of the task, so that one call (one round trip) suffices.
 */
export interface ClaimRequest {
  /**
   * `handoff_id` of the envelope, in lower case (a UUID when the envelope is schema-valid);
   * `null` when it is not a string (the delivery is then `rejected`, and only counted).
   */
  readonly handoffId: string | null;
  /** `task_id` of the envelope, a string (a delivery without one is not claimed). */
  readonly taskId: string;
  /**
   * `hop.index`: a whole number from 0 to 2^53 - 1; `null` when it is not one (the delivery is
   * then `rejected`, and only counted).
   */
  readonly hopIndex: number | null;
  /** `from_agent.id`; `null` when the envelope names none. */
  readonly producer: string | null;
  /** The receiving agent (`options.me`). */
  readonly receiver: string;
  /**
   * The graph's edge `producer -> receiver`; `null` when the graph has none. It picks the
   * refusal count: the producer's own over an edge, one shared count over none.
   */
  readonly edge: ClaimEdge | null;
  /** What the content checks decided (`accepted` includes an `observe` edge's acceptance with warnings). */
  readonly verdict: "accepted" | "rejected";
  /** The time of the delivery (`options.now`), in milliseconds since the Unix epoch. */
  readonly at: number;
  /**
   * `hop.path` when it is an array of strings, else `null`: compared with the path the ledger
   * recorded for the task, and recorded when the delivery is claimed. Added with the ledger; a
   * store written before it may ignore it.
   */
  readonly path?: readonly string[] | null;
  /**
   * The envelope's whole-number budget counters, `null` when it has no budget: compared with the
   * budget of the task's last accepted hop (a limit may not rise nor disappear, spend may not go
   * backwards), and recorded when the delivery is claimed. A store written before it may ignore it.
   */
  readonly budget?: ClaimBudget | null;
  /**
   * The token of this claim attempt, unique to it (a random UUID, or the transport's receipt
   * handle): with a store that leases claims, the claim is held under it, and only it commits or
   * releases the claim. Added with leases; a store written before them ignores it.
   */
  readonly token?: string;
  /**
   * The delivered envelope, for a store that leases claims to fingerprint (`envelope-digest.ts`):
   * an expired claim is taken over only by a redelivery of the same envelope; other content
   * under its `handoff_id` is a duplicate. A store that leases nothing ignores it.
   */
  readonly envelope?: unknown;
  /**
   * What the delivery says of approvals, for graphs whose envelope has the approval record (1.4
   * and later); `null` or absent before, and then the store keeps no approvals. A store written
   * before it may ignore it.
   */
  readonly approval?: ClaimApproval | null;
}

/** A delivery's approval facts. */
export interface ClaimApproval {
  /** `status` is `waiting_review`: accepted, the task waits for approval of this handoff. */
  readonly waits: boolean;
  /** `approval.pending_handoff_id` in lower case, when it is a string; else `null`. */
  readonly cites: string | null;
}

/** A delivery's budget: its `budget.limit` and `budget.consumed` counters that are whole numbers (`null` when none is). */
export interface ClaimBudget {
  readonly limit: { readonly [counter: string]: number } | null;
  readonly consumed: { readonly [counter: string]: number } | null;
}

/** The earlier accepted delivery a duplicate repeats (or whose lease holds the handoff). */
export interface ClaimHolder {
  readonly handoffId: string;
  readonly receiver: string;
  /** When it was accepted (for a claim taken over, when it was taken over), in milliseconds since the Unix epoch. */
  readonly at: number;
}

/** How a task ended: the terminal action its owner took (see {@link FinishRequest}). */
export interface TaskEnd {
  /** The agent that took the terminal action. */
  readonly agent: string;
  /** The terminal's id, as the graph declares it on that agent. */
  readonly terminal: string;
  /** The terminal's outcome (`complete`, `escalate`, `fail`). */
  readonly outcome: string;
  /** When, in milliseconds since the Unix epoch. */
  readonly at: number;
  /** The task's last accepted hop at the time; `null` when the ledger had none. */
  readonly hopIndex: number | null;
}

/**
 * One way a delivery breaks the task's chain of custody (the store found it; `accept()` words it).
 * The next hop is the last accepted hop + 1, or 1 for a task with no accepted hop (graph scope):
 * - `reset`: `hop.index` is below the next hop (a counter gone backwards, or an older hop sent
 *   again after the task moved on);
 * - `skip`: `hop.index` is past the next hop (a hop nobody accepted; for a task with no accepted
 *   hop, any hop past 1);
 * - `producer`: `from_agent.id` is not the task's owner;
 * - `path`: `hop.path[index]` is not `expected`, the agent the ledger recorded at that step;
 * - `budget-limit`: `budget.limit[counter]` is above (or, absent, drops) the limit `before` that
 *   hop `hop`, the task's last accepted hop, carried;
 * - `budget-consumed`: `budget.consumed[counter]` is below (or, absent, hides) the `before` that
 *   hop `hop` reported;
 * - `approval`: the task waits for approval of handoff `pending`, and the delivery does not cite it;
 * - `approval-cite`: no approval is pending, and the delivery's approval record cites another
 *   handoff than `expected`, the task's last accepted one (graph scope).
 */
export type CustodyFault =
  | { readonly kind: "reset" }
  | { readonly kind: "skip" }
  | { readonly kind: "producer" }
  | { readonly kind: "path"; readonly index: number; readonly expected: string }
  | { readonly kind: "budget-limit" | "budget-consumed"; readonly counter: string; readonly before: number; readonly hop: number }
  | { readonly kind: "approval"; readonly pending: string }
  | { readonly kind: "approval-cite"; readonly expected: string };

/**
 * The store's answer, a discriminated union on `outcome`. `accept()` reads only the fields named
 * here; `attempt` is optional so that a store written before the ledger still works (its
 * refusals all count as the first).
 * - `claimed`: an accepted delivery is recorded; `receiver` now owns the task's hop. With a lease,
 *   `leaseUntil`: the claim is held under the request's `token` until then (ms since the Unix
 *   epoch), to be settled (committed or released); absent, it is committed.
 * - `leased`: nothing written; `holder`, a claim of this very handoff by this receiver, is held
 *   by a live lease until `until`: deliver the handoff again after then.
 * - `noted`: a rejected delivery is recorded; nothing is owned. `attempt`: how many refusals
 *   the producer's count of the task's current round holds, this one included (module comment).
 * - `duplicate`: nothing written; `of` says whether the `handoff_id` (a redelivery) or the task's
 *   latest hop from this producer to this receiver (a replay under a fresh id) was accepted
 *   before, by `holder`.
 * - `owner-conflict`: `owner` accepted this task's hop before; only the refusal is counted.
 * - `custody`: the delivery is out of turn for its task (see {@link CustodyFault}); `owner`
 *   accepted the task's last hop, `lastHop`, both `null` when the task has no accepted hop (a
 *   first delivery past hop 1); only the refusal is counted.
 * - `finished`: the task ended (`ended`); nothing written.
 */
export type ClaimResult =
  | { readonly outcome: "claimed"; readonly leaseUntil?: number }
  | { readonly outcome: "leased"; readonly holder: ClaimHolder; readonly until: number }
  | { readonly outcome: "noted"; readonly attempt?: number }
  | { readonly outcome: "duplicate"; readonly of: "handoff" | "hop"; readonly holder: ClaimHolder }
  | { readonly outcome: "owner-conflict"; readonly owner: string; readonly attempt?: number }
  | {
      readonly outcome: "custody";
      readonly owner: string | null;
      readonly lastHop: number | null;
      readonly faults: readonly CustodyFault[];
      readonly attempt?: number;
    }
  | { readonly outcome: "finished"; readonly ended: TaskEnd };

/** A terminal action, as the store sees it (made by `finish()` after checking it against the graph). */
export interface FinishRequest {
  readonly taskId: string;
  /** The agent that takes the terminal action. */
  readonly agent: string;
  readonly terminal: string;
  readonly outcome: string;
  /** Milliseconds since the Unix epoch. */
  readonly at: number;
  /**
   * Whether `agent` is an entry of the graph: with a graph-wide store, a task with no accepted
   * hop (never handed on) is ended only by an entry agent.
   */
  readonly entry: boolean;
}

/**
 * The store's answer to a terminal action:
 * - `finished`: recorded; every later handoff of the task is refused;
 * - `not-owner`: nothing written: `owner` accepted the task's last hop, `lastHop`, so only it may
 *   end the task; both `null` when the task has no accepted hop and `agent` is no entry agent
 *   (graph scope);
 * - `already-finished`: nothing written; the task ended before (`ended`).
 */
export type FinishResult =
  | { readonly outcome: "finished"; readonly ended: TaskEnd }
  | { readonly outcome: "not-owner"; readonly owner: string | null; readonly lastHop: number | null }
  | { readonly outcome: "already-finished"; readonly ended: TaskEnd };

/** The end of a leased claim, as the store sees it (made by `commit()` / `release()` from an acceptance record). */
export interface SettleRequest {
  readonly taskId: string;
  /** The claimed handoff's id, in lower case, and its producer (`null` when the envelope named none). */
  readonly handoffId: string;
  readonly producer: string | null;
  /** The token the claim was made under (the record's `lease.token`). */
  readonly token: string;
  /** `commit`: the handoff is processed (redeliveries are duplicates); `release`: it is not, and the next delivery takes the claim over at once. */
  readonly action: "commit" | "release";
  /** Milliseconds since the Unix epoch. */
  readonly at: number;
}

/**
 * The store's answer to a settle:
 * - `committed`: the claim is committed (now, or before: a commit is idempotent, and a committed
 *   claim cannot be released);
 * - `released`: the lease ended now; the next delivery of the handoff to its receiver takes it over;
 * - `lost`: the token holds the claim no more: its lease ran out and another delivery took the
 *   claim over (`holder`), or the ledger forgot the task (`holder` null). Nothing written.
 */
export type SettleResult =
  | { readonly outcome: "committed" | "released" }
  | { readonly outcome: "lost"; readonly holder: ClaimHolder | null };

/**
 * A synchronous store, for `accept()`: `claim` decides and records one delivery atomically (see
 * the module comment), `finish` records a terminal action atomically (optional: a store without
 * it cannot end tasks, and `finish()` says so), `settle` commits or releases a leased claim
 * (optional: a store that leases no claim needs none). What they throw, `accept()`, `finish()`
 * and `commit()` throw.
 */
export interface SeenStore {
  claim(request: ClaimRequest): ClaimResult;
  finish?(request: FinishRequest): FinishResult;
  settle?(request: SettleRequest): SettleResult;
}

/**
 * An asynchronous store, for `acceptAsync()` (Redis, SQL): the same contract as
 * {@link SeenStore}, answered by a promise. A synchronous store is also an asynchronous one.
 * A rejected promise is thrown by `acceptAsync()` (an unavailable store is not bad input).
 */
export interface AsyncSeenStore {
  claim(request: ClaimRequest): ClaimResult | PromiseLike<ClaimResult>;
  finish?(request: FinishRequest): FinishResult | PromiseLike<FinishResult>;
  settle?(request: SettleRequest): SettleResult | PromiseLike<SettleResult>;
}

/** Options of {@link createMemorySeenStore}. */
export interface MemorySeenStoreOptions {
  /**
   * How long a task's memory lasts after its last recorded delivery or terminal action, in
   * milliseconds (default 86,400,000: one day). Past it, the task is forgotten whole: its
   * handoff ids, owners, path, refusal counts and end. A positive whole number.
   */
  readonly ttlMs?: number;
  /**
   * Who shares the store. `"graph"` (default): every service that accepts for the graph, so the
   * ledger sees every hop and checks the chain of custody: a task starts at hop 1, and only its
   * owner (an entry agent, before any hop) ends it. `"receiver"`: one service alone (its
   * replicas at most), which sees only the hops addressed to it: duplicates, replays, refusal
   * counts, resets below its own last hop and tasks it saw end are still checked; who owns the
   * task now, skipped hops, the first hop and the path are not (they would be gaps, not faults).
   */
  readonly scope?: "graph" | "receiver";
  /**
   * How long a claim is leased before it must be committed, in milliseconds (a whole number;
   * default 0: no lease, a claim is committed when it is made). See the module comment: with a
   * lease, a handoff whose claim was never committed is taken over by its next delivery once the
   * lease ran out, so a service that crashed, or never heard the claim's answer, loses nothing.
   * Longer than the handoff takes to process; shorter than the task's `ttlMs`.
   */
  readonly leaseMs?: number;
}

/** One day in milliseconds: the default memory of a task. */
export const DEFAULT_TASK_TTL_MS = 86_400_000;

interface HopOwner {
  readonly hopIndex: number;
  readonly handoffId: string;
  readonly producer: string | null;
  readonly receiver: string;
  /** When it was claimed (or taken over). */
  at: number;
  /** The task's hop accepted before this one (a lower index); null for its first. */
  readonly previous: HopOwner | null;
  readonly taskId: string;
  /** The token of the claim (lease-held): null for a claim committed when made. */
  token: string | null;
  /** Until when the lease holds it uncommitted; null once committed (or committed when made). */
  until: number | null;
  /** The claimed envelope's digest (leased claims only): a takeover must bring the same. */
  readonly digest: string | null;
}

/** The refusal count of deliveries over no edge of the graph (agent ids are never `null`). */
const NO_EDGE = null;

interface TaskLedger {
  /**
   * The last accepted hop, the others chained behind it in falling index order (a lower index is
   * refused as a reset); null before the first. A chain, not an array: one object less to keep
   * per task, and most tasks are short.
   */
  last: HopOwner | null;
  /** Refusals of the current round, per producer with an edge (and `NO_EDGE`); null until the first (most tasks have none). */
  refusals: Map<string | null, number> | null;
  /** `hop.path` of the last accepted hop. */
  path: readonly string[] | null;
  /** The budget of the last accepted hop. */
  budget: ClaimBudget | null;
  /** The handoff id the task waits for approval of; null when none is pending. */
  pending: string | null;
  ended: TaskEnd | undefined;
  /** The last write, for expiry. */
  touched: number;
  readonly taskId: string;
  /** The neighbours in the order of the last write (a list, so a write moves a task without touching the Map). */
  older: TaskLedger | null;
  newer: TaskLedger | null;
}

/**
 * A store held in this process's memory, for tests, `seam validate` and single-process services;
 * it is both a {@link SeenStore} and an {@link AsyncSeenStore}. Tasks are forgotten `ttlMs` after
 * their last write, swept as time (the requests' `at`) passes, so memory is bounded by the tasks
 * active within one `ttlMs`; each task holds its accepted hops and at most (agents + 1) refusal
 * counts.
 *
 * @throws TypeError when an option is not as documented
 */
export function createMemorySeenStore(options: MemorySeenStoreOptions = {}): Required<SeenStore> & Required<AsyncSeenStore> {
  const ttl = options.ttlMs ?? DEFAULT_TASK_TTL_MS;
  if (!Number.isSafeInteger(ttl) || ttl <= 0) throw new TypeError(`createMemorySeenStore: ttlMs must be a positive whole number of milliseconds, not ${String(ttl)}`);
  const scope = options.scope ?? "graph";
  if (scope !== "graph" && scope !== "receiver") throw new TypeError(`createMemorySeenStore: scope must be "graph" or "receiver", not ${String(scope)}`);
  const graphWide = scope === "graph";
  const leaseMs = options.leaseMs ?? 0;
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 0) throw new TypeError(`createMemorySeenStore: leaseMs must be a whole number of milliseconds, 0 (no lease) or more, not ${String(leaseMs)}`);
  const accepted = new Map<string, HopOwner>();
  const tasks = new Map<string, TaskLedger>();
  // The tasks in the order of their last write, a doubly linked list through the ledgers: the
  // oldest (first to expire) at one end, the newest at the other. Not the Map's own order: moving
  // an entry there is a delete and a set, and a Map iterated from its front walks the slots of
  // every deleted entry until it is rehashed, which made each sweep cost as much as the churn.
  let oldest: TaskLedger | null = null;
  let newest: TaskLedger | null = null;

  function sweep(now: number): void {
    while (oldest !== null && now - oldest.touched >= ttl) {
      const task = oldest;
      for (let hop = task.last; hop !== null; hop = hop.previous) accepted.delete(keyOfHandoff(hop.producer, hop.handoffId));
      tasks.delete(task.taskId);
      oldest = task.newer;
      if (oldest === null) newest = null;
      else oldest.older = null;
    }
  }

  /** Puts a task at the newest end of the list. */
  function append(task: TaskLedger): void {
    task.older = newest;
    task.newer = null;
    if (newest === null) oldest = task;
    else newest.newer = task;
    newest = task;
  }

  /** Adds a task the store does not hold, as the newest. */
  function remember(task: TaskLedger): TaskLedger {
    tasks.set(task.taskId, task);
    append(task);
    return task;
  }

  /** Records a write to a task the store holds: it becomes the newest. */
  function touch(task: TaskLedger, at: number): void {
    if (at > task.touched) task.touched = at;
    if (task === newest) return;
    // Not the newest, so it has a newer neighbour.
    (task.newer as TaskLedger).older = task.older;
    if (task.older === null) oldest = task.newer;
    else task.older.newer = task.newer;
    append(task);
  }

  /** Counts a refusal in the producer's count of the task's round and returns it. */
  function refuse(request: ClaimRequest, task: TaskLedger | undefined): number {
    if (task === undefined) task = remember(emptyLedger(request.taskId, request.at));
    else touch(task, request.at);
    const bucket = request.edge === null ? NO_EDGE : request.edge.from;
    const refusals = (task.refusals ??= new Map());
    const count = (refusals.get(bucket) ?? 0) + 1;
    refusals.set(bucket, count);
    return count;
  }

  /** What is out of turn about a delivery at `hopIndex` to a task whose last accepted hop is `last`. */
  function custodyFaults(request: ClaimRequest, hopIndex: number, task: TaskLedger | undefined, last: HopOwner | null): CustodyFault[] | undefined {
    if (last === null) {
      // Graph-wide, every hop of a task passes through this store: an unknown task starts at 1.
      if (!graphWide || hopIndex === 1) return undefined;
      return [{ kind: hopIndex < 1 ? "reset" : "skip" }];
    }
    const faults: CustodyFault[] = [];
    if (hopIndex <= last.hopIndex) faults.push({ kind: "reset" });
    if (graphWide) {
      if (hopIndex > last.hopIndex + 1) faults.push({ kind: "skip" });
      const notOwner = request.producer !== last.receiver;
      if (notOwner) faults.push({ kind: "producer" });
      const path = request.path;
      const recorded = (task as TaskLedger).path;
      if (path != null && recorded !== null) {
        // Entry `last.hopIndex` is the owner itself: already named by a `producer` fault.
        const end = Math.min(recorded.length, path.length, notOwner ? last.hopIndex : last.hopIndex + 1);
        for (let i = 0; i < end; i++) {
          if (path[i] !== recorded[i]) {
            faults.push({ kind: "path", index: i, expected: recorded[i] as string });
            break;
          }
        }
      }
    }
    if (last !== null && task !== undefined) budgetFaults(request.budget, task.budget, last.hopIndex, faults);
    if (last !== null && task !== undefined) approvalFaults(request.approval, task.pending, graphWide ? last.handoffId : null, faults);
    return faults.length > 0 ? faults : undefined;
  }

  /** Whether `hop`, this very handoff, is a claim by the request's receiver still uncommitted: its task's last hop, not ended. */
  function isOpenLease(hop: HopOwner, request: ClaimRequest, task: TaskLedger): boolean {
    return hop.until !== null && hop.receiver === request.receiver && hop.taskId === request.taskId && task.last === hop && task.ended === undefined;
  }

  /** A redelivery of a leased claim: held while the lease is live, taken over once it ran out (lease-held). */
  function redeliverLeased(hop: HopOwner, request: ClaimRequest, task: TaskLedger): ClaimResult {
    const until = hop.until as number;
    if (request.at < until) return { outcome: "leased", holder: holder(hop), until };
    // Other content under the claimed handoff_id is no redelivery: a duplicate of the id.
    if (hop.digest !== null && envelopeDigest(request.envelope) !== hop.digest) return { outcome: "duplicate", of: "handoff", holder: holder(hop) };
    // A redelivery the content checks now refuse does not take the claim: it is counted.
    if (request.verdict === "rejected" || typeof request.token !== "string") return { outcome: "noted", attempt: refuse(request, task) };
    hop.token = request.token;
    hop.until = request.at + leaseMs;
    hop.at = request.at;
    touch(task, request.at);
    return { outcome: "claimed", leaseUntil: hop.until };
  }

  return {
    claim(request: ClaimRequest): ClaimResult {
      sweep(request.at);
      const { handoffId, hopIndex } = request;
      // Unusable header: nothing to key a duplicate, an owner or a turn on; only counted.
      if (handoffId === null || hopIndex === null) {
        const task = tasks.get(request.taskId);
        if (task?.ended !== undefined) return { outcome: "finished", ended: task.ended };
        return { outcome: "noted", attempt: refuse(request, task) };
      }
      // Keyed by producer too: another sender's use of a handoff id cannot make this one a duplicate.
      const handoffKey = keyOfHandoff(request.producer, handoffId);
      const earlier = accepted.get(handoffKey);
      const task = tasks.get(request.taskId);
      if (earlier !== undefined) {
        if (task !== undefined && isOpenLease(earlier, request, task)) return redeliverLeased(earlier, request, task);
        return { outcome: "duplicate", of: "handoff", holder: holder(earlier) };
      }
      if (task?.ended !== undefined) return { outcome: "finished", ended: task.ended };
      const last = task === undefined ? null : task.last;
      if (last !== null && hopIndex <= last.hopIndex) {
        // The latest step again (same producer, same receiver) under a fresh id: a replay.
        if (hopIndex === last.hopIndex && last.receiver === request.receiver && last.producer === request.producer) {
          return { outcome: "duplicate", of: "hop", holder: holder(last) };
        }
        // Indexes fall along the chain, so the search stops at the first hop not past the request's.
        let owner: HopOwner | null = last;
        while (owner !== null && owner.hopIndex > hopIndex) owner = owner.previous;
        // Another receiver for a hop taken, from anyone but the current owner: two owners of one hop.
        if (owner !== null && owner.hopIndex === hopIndex && owner.receiver !== request.receiver && !(graphWide && request.producer === last.receiver)) {
          return { outcome: "owner-conflict", owner: owner.receiver, attempt: refuse(request, task) };
        }
        // Otherwise an older number again: the counter went backwards (below).
      }
      const faults = custodyFaults(request, hopIndex, task, last);
      if (faults !== undefined) {
        return { outcome: "custody", owner: last === null ? null : last.receiver, lastHop: last === null ? null : last.hopIndex, faults, attempt: refuse(request, task) };
      }
      if (request.verdict === "rejected") return { outcome: "noted", attempt: refuse(request, task) };
      const token = leaseMs > 0 && typeof request.token === "string" ? request.token : null;
      const until = token === null ? null : request.at + leaseMs;
      const digest = token === null ? null : envelopeDigest(request.envelope);
      const claim: HopOwner = { hopIndex, handoffId, producer: request.producer, receiver: request.receiver, at: request.at, previous: last, taskId: request.taskId, token, until, digest };
      const claimed: ClaimResult = until === null ? CLAIMED : { outcome: "claimed", leaseUntil: until };
      accepted.set(handoffKey, claim);
      if (task === undefined) {
        remember({
          last: claim,
          refusals: null,
          path: request.path ?? null,
          budget: request.budget ?? null,
          pending: request.approval?.waits === true ? handoffId : null,
          ended: undefined,
          touched: request.at,
          taskId: request.taskId,
          older: null,
          newer: null,
        });
        return claimed;
      }
      // Resets are refused, so a claimed hop is always past the last: the chain stays in index order.
      task.last = claim;
      task.path = request.path ?? null;
      task.budget = request.budget ?? null;
      // A resumption answers the pending approval; a hand-back waiting for review opens one.
      task.pending = request.approval?.waits === true ? handoffId : null;
      // The next round starts with no refusals.
      task.refusals = null;
      touch(task, request.at);
      return claimed;
    },

    settle(request: SettleRequest): SettleResult {
      sweep(request.at);
      const hop = accepted.get(keyOfHandoff(request.producer, request.handoffId));
      if (hop === undefined || hop.taskId !== request.taskId) return { outcome: "lost", holder: null };
      if (hop.token !== request.token) return { outcome: "lost", holder: holder(hop) };
      if (hop.until === null) return COMMITTED;
      if (request.action === "commit") {
        hop.until = null;
        return COMMITTED;
      }
      hop.until = Math.min(hop.until, request.at);
      return { outcome: "released" };
    },

    finish(request: FinishRequest): FinishResult {
      sweep(request.at);
      const task = tasks.get(request.taskId);
      if (task?.ended !== undefined) return { outcome: "already-finished", ended: task.ended };
      const last = task === undefined ? null : task.last;
      if (graphWide) {
        if (last !== null && last.receiver !== request.agent) return { outcome: "not-owner", owner: last.receiver, lastHop: last.hopIndex };
        // Never handed on: it is still with the entry agent that took it in.
        if (last === null && !request.entry) return { outcome: "not-owner", owner: null, lastHop: null };
      }
      const ended: TaskEnd = { agent: request.agent, terminal: request.terminal, outcome: request.outcome, at: request.at, hopIndex: last === null ? null : last.hopIndex };
      if (task === undefined) remember(emptyLedger(request.taskId, request.at)).ended = ended;
      else {
        task.ended = ended;
        touch(task, request.at);
      }
      return { outcome: "finished", ended };
    },
  };
}

/** The answer to every claimed delivery without a lease: it carries nothing, so one object serves them all. */
const CLAIMED: ClaimResult = Object.freeze({ outcome: "claimed" });

const COMMITTED: SettleResult = Object.freeze({ outcome: "committed" });

function emptyLedger(taskId: string, at: number): TaskLedger {
  return { last: null, refusals: null, path: null, budget: null, pending: null, ended: undefined, touched: at, taskId, older: null, newer: null };
}

function holder(claim: HopOwner): ClaimHolder {
  return { handoffId: claim.handoffId, receiver: claim.receiver, at: claim.at };
}

/** The key of a handoff: its producer and id (a producer id never holds a NUL: the envelope's text may, so the length leads). */
function keyOfHandoff(producer: string | null, handoffId: string): string {
  return producer === null ? `-:${handoffId}` : `${producer.length}:${producer}:${handoffId}`;
}

/**
 * The budget faults of a delivery against the task's last accepted budget (`recorded`, of hop
 * `hop`): a limit raised or dropped, spend lowered or hidden. Counters in schema order.
 */
export function budgetFaults(budget: ClaimBudget | null | undefined, recorded: ClaimBudget | null, hop: number, faults: CustodyFault[]): void {
  if (budget == null || recorded === null) return;
  const limitBefore = recorded.limit ?? NO_COUNTERS;
  const spentBefore = recorded.consumed ?? NO_COUNTERS;
  const limit = budget.limit ?? NO_COUNTERS;
  const spent = budget.consumed ?? NO_COUNTERS;
  // By literal names, in the order of BUDGET_COUNTERS: a computed name makes each of these twenty
  // reads a dictionary lookup, on every claim of a task with a budget.
  counterFaults("tokens", limitBefore.tokens, limit.tokens, spentBefore.tokens, spent.tokens, hop, faults);
  counterFaults("wall_clock_ms", limitBefore.wall_clock_ms, limit.wall_clock_ms, spentBefore.wall_clock_ms, spent.wall_clock_ms, hop, faults);
  counterFaults("tool_calls", limitBefore.tool_calls, limit.tool_calls, spentBefore.tool_calls, spent.tool_calls, hop, faults);
  counterFaults("retries", limitBefore.retries, limit.retries, spentBefore.retries, spent.retries, hop, faults);
  counterFaults("cost_micros", limitBefore.cost_micros, limit.cost_micros, spentBefore.cost_micros, spent.cost_micros, hop, faults);
}

/** A budget without counters, read in place of `null`. */
const NO_COUNTERS: { readonly [counter: string]: number | undefined } = Object.freeze(Object.create(null) as Record<string, number>);

/** One counter's faults (see {@link budgetFaults}): its limit, then its spend. */
function counterFaults(
  counter: BudgetCounter,
  limitBefore: number | undefined,
  limit: number | undefined,
  spentBefore: number | undefined,
  spent: number | undefined,
  hop: number,
  faults: CustodyFault[],
): void {
  if (limitBefore !== undefined && (limit === undefined || limit > limitBefore)) faults.push({ kind: "budget-limit", counter, before: limitBefore, hop });
  if (spentBefore !== undefined && (spent === undefined || spent < spentBefore)) faults.push({ kind: "budget-consumed", counter, before: spentBefore, hop });
}

/**
 * The approval faults of a delivery (`approval`) to a task waiting for approval of `pending`
 * (null: none pending) whose last accepted handoff is `last` (null: not compared, receiver scope).
 */
export function approvalFaults(approval: ClaimApproval | null | undefined, pending: string | null, last: string | null, faults: CustodyFault[]): void {
  if (approval == null) return;
  if (pending !== null) {
    if (approval.cites !== pending) faults.push({ kind: "approval", pending });
  } else if (approval.cites !== null && last !== null && approval.cites !== last) {
    faults.push({ kind: "approval-cite", expected: last });
  }
}
