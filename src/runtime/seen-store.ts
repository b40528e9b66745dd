/**
 * What ingest remembers between deliveries, behind ONE atomic call per delivery: `claim`. Every
 * delivery whose header names it (a string `handoff_id` and `task_id`, an integer `hop.index`) is
 * sent to the store with the verdict the content checks reached, and the store answers whether the
 * delivery is new, a repeat, or out of turn for its task. The claim is the only authority on
 * duplicates, replays, ownership and the task ledger: nothing is read from the store before it,
 * so a store backed by Redis or SQL decides each delivery in one round trip (a Lua script, one
 * transaction) and two replicas racing for the same hop cannot both win.
 *
 * The kinds of repeat (the idempotency-key idea of HTTP's `Idempotency-Key` header, IETF draft
 * `draft-ietf-httpapi-idempotency-key-header`, applied per handoff and per hop):
 * - the same `handoff_id` after it was accepted: a redelivery, `duplicate` (`of: "handoff"`);
 * - the same task and hop, accepted before by the same receiver, under a fresh `handoff_id`: a
 *   replay (a resumed step re-sent), `duplicate` (`of: "hop"`);
 * - the same task and hop, accepted before by another receiver: `owner-conflict`;
 * - anything after a rejection (same or fresh `handoff_id`): a retry, judged on its own, and
 *   counted: the answer carries the refusal's `attempt` for that task and hop.
 *
 * The task ledger (per `task_id`): the hops accepted so far, the path they walked, the refusals
 * per hop, and whether the task ended. The owner of a task is the receiver of its last accepted
 * hop; only the owner hands it on, at the next hop, along the recorded path (`custody`). A task
 * that ended at a terminal (`finish`) takes no further handoff (`finished`).
 */

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
  /**
   * `hop.path` when it is an array of strings, else `null`: compared with the path the ledger
   * recorded for the task, and recorded when the delivery is claimed. Added with the ledger; a
   * store written before it may ignore it.
   */
  readonly path?: readonly string[] | null;
}

/** The earlier accepted delivery a duplicate repeats. */
export interface ClaimHolder {
  readonly handoffId: string;
  readonly receiver: string;
  /** When it was accepted, in milliseconds since the Unix epoch. */
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
 * One way a delivery breaks the task's chain of custody (the store found it; `accept()` words it):
 * - `reset`: `hop.index` is below the next hop (a counter gone backwards);
 * - `skip`: `hop.index` is past the next hop (a hop nobody accepted);
 * - `producer`: `from_agent.id` is not the task's owner;
 * - `path`: `hop.path[index]` is not `expected`, the agent the ledger recorded at that step.
 */
export type CustodyFault =
  | { readonly kind: "reset" }
  | { readonly kind: "skip" }
  | { readonly kind: "producer" }
  | { readonly kind: "path"; readonly index: number; readonly expected: string };

/**
 * The store's answer, a discriminated union on `outcome`. `accept()` reads only the fields named
 * here; `attempt` is optional so that a store written before the ledger still works (its
 * refusals all count as the first).
 * - `claimed`: an accepted delivery is recorded; `receiver` now owns the task's hop.
 * - `noted`: a rejected delivery is recorded; nothing is owned. `attempt`: how many refusals the
 *   task's hop has had, this one included.
 * - `duplicate`: nothing written; `of` says whether the `handoff_id` (a redelivery) or the task's
 *   hop to this receiver (a replay under a fresh id) was accepted before, by `holder`.
 * - `owner-conflict`: `owner` accepted this task's hop before; only the refusal is counted.
 * - `custody`: the delivery is out of turn for its task (see {@link CustodyFault}); `owner`
 *   accepted the task's last hop, `lastHop`; only the refusal is counted.
 * - `finished`: the task ended (`ended`); nothing written.
 */
export type ClaimResult =
  | { readonly outcome: "claimed" }
  | { readonly outcome: "noted"; readonly attempt?: number }
  | { readonly outcome: "duplicate"; readonly of: "handoff" | "hop"; readonly holder: ClaimHolder }
  | { readonly outcome: "owner-conflict"; readonly owner: string; readonly attempt?: number }
  | {
      readonly outcome: "custody";
      readonly owner: string;
      readonly lastHop: number;
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
}

/**
 * The store's answer to a terminal action:
 * - `finished`: recorded; every later handoff of the task is refused;
 * - `not-owner`: nothing written: `owner` accepted the task's last hop, so only it may end the task;
 * - `already-finished`: nothing written; the task ended before (`ended`).
 */
export type FinishResult =
  | { readonly outcome: "finished"; readonly ended: TaskEnd }
  | { readonly outcome: "not-owner"; readonly owner: string; readonly lastHop: number }
  | { readonly outcome: "already-finished"; readonly ended: TaskEnd };

/**
 * A synchronous store, for `accept()`: `claim` decides and records one delivery atomically (see
 * the module comment), `finish` records a terminal action atomically (optional: a store without
 * it cannot end tasks, and `finish()` says so). What they throw, `accept()` and `finish()` throw.
 */
export interface SeenStore {
  claim(request: ClaimRequest): ClaimResult;
  finish?(request: FinishRequest): FinishResult;
}

/**
 * An asynchronous store, for `acceptAsync()` (Redis, SQL): the same contract as
 * {@link SeenStore}, answered by a promise. A synchronous store is also an asynchronous one.
 * A rejected promise is thrown by `acceptAsync()` (an unavailable store is not bad input).
 */
export interface AsyncSeenStore {
  claim(request: ClaimRequest): ClaimResult | PromiseLike<ClaimResult>;
  finish?(request: FinishRequest): FinishResult | PromiseLike<FinishResult>;
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
   * ledger sees every hop and checks the chain of custody. `"receiver"`: one service alone (its
   * replicas at most), which sees only the hops addressed to it: duplicates, replays, refusal
   * counts, resets below its own last hop and tasks it saw end are still checked; who owns the
   * task now, skipped hops and the path are not (they would be gaps, not faults).
   */
  readonly scope?: "graph" | "receiver";
}

/** One day in milliseconds: the default memory of a task. */
export const DEFAULT_TASK_TTL_MS = 86_400_000;

interface HopOwner {
  readonly hopIndex: number;
  readonly handoffId: string;
  readonly producer: string | null;
  readonly receiver: string;
  readonly at: number;
  /** The task's hop accepted before this one (a lower index); null for its first. */
  readonly previous: HopOwner | null;
}

interface Refusals {
  readonly hopIndex: number;
  count: number;
}

interface TaskLedger {
  /**
   * The last accepted hop, the others chained behind it in falling index order (a lower unowned
   * index is refused as a reset); null before the first. A chain, not an array: one object less
   * to keep per task, and most tasks are short.
   */
  last: HopOwner | null;
  /** Refusals per hop; null until the first (most tasks have none). */
  refusals: Refusals[] | null;
  /** `hop.path` of the last accepted hop. */
  path: readonly string[] | null;
  ended: TaskEnd | undefined;
  /** The last write, for expiry. */
  touched: number;
}

/**
 * A store held in this process's memory, for tests, `seam validate` and single-process services;
 * it is both a {@link SeenStore} and an {@link AsyncSeenStore}. Tasks are forgotten `ttlMs` after
 * their last write, swept as time (the requests' `at`) passes, so memory is bounded by the tasks
 * active within one `ttlMs`.
 *
 * @throws TypeError when an option is not as documented
 */
export function createMemorySeenStore(options: MemorySeenStoreOptions = {}): Required<SeenStore> & Required<AsyncSeenStore> {
  const ttl = options.ttlMs ?? DEFAULT_TASK_TTL_MS;
  if (!Number.isSafeInteger(ttl) || ttl <= 0) throw new TypeError(`createMemorySeenStore: ttlMs must be a positive whole number of milliseconds, not ${String(ttl)}`);
  const scope = options.scope ?? "graph";
  if (scope !== "graph" && scope !== "receiver") throw new TypeError(`createMemorySeenStore: scope must be "graph" or "receiver", not ${String(scope)}`);
  const graphWide = scope === "graph";
  const accepted = new Map<string, HopOwner>();
  // Tasks in the order of their last write (re-inserted on each), so expired ones are at the front.
  const tasks = new Map<string, TaskLedger>();
  // The task written last, so at the back of `tasks`: writing it again need not move it.
  let newest: TaskLedger | undefined;
  // The task at the front of `tasks` when known, so that a sweep with nothing to forget is one
  // comparison; unknown (undefined) after the front moves, until the next sweep finds it.
  let oldest: TaskLedger | undefined;

  function sweep(now: number): void {
    if (oldest !== undefined && now - oldest.touched < ttl) return;
    oldest = undefined;
    for (const [taskId, task] of tasks) {
      if (now - task.touched < ttl) {
        oldest = task;
        return;
      }
      for (let hop = task.last; hop !== null; hop = hop.previous) accepted.delete(hop.handoffId);
      tasks.delete(taskId);
      if (task === newest) newest = undefined;
    }
  }

  /** Adds a task the store does not hold; a Map keeps insertion order, so it goes to the back. */
  function remember(taskId: string, task: TaskLedger): void {
    tasks.set(taskId, task);
    newest = task;
  }

  /** Records a write to a task the store holds, moving it to the back (delete, then set). */
  function touch(taskId: string, task: TaskLedger, at: number): void {
    task.touched = Math.max(task.touched, at);
    if (task === newest) return;
    if (task === oldest) oldest = undefined;
    tasks.delete(taskId);
    remember(taskId, task);
  }

  function ledgerOf(taskId: string, at: number): TaskLedger {
    let task = tasks.get(taskId);
    if (task === undefined) {
      task = { last: null, refusals: null, path: null, ended: undefined, touched: at };
      remember(taskId, task);
    }
    return task;
  }

  /** Counts a refusal of the task's hop and returns how many it has had. */
  function refuse(request: ClaimRequest): number {
    const task = ledgerOf(request.taskId, request.at);
    const refusals = (task.refusals ??= []);
    let entry: Refusals | undefined;
    for (const refused of refusals) {
      if (refused.hopIndex === request.hopIndex) {
        entry = refused;
        break;
      }
    }
    if (entry === undefined) refusals.push((entry = { hopIndex: request.hopIndex, count: 0 }));
    entry.count++;
    touch(request.taskId, task, request.at);
    return entry.count;
  }

  /** What is out of turn about a delivery to a task whose last accepted hop is `last`. */
  function custodyFaults(request: ClaimRequest, task: TaskLedger, last: HopOwner): CustodyFault[] {
    const faults: CustodyFault[] = [];
    if (request.hopIndex <= last.hopIndex) faults.push({ kind: "reset" });
    if (!graphWide) return faults;
    if (request.hopIndex > last.hopIndex + 1) faults.push({ kind: "skip" });
    const notOwner = request.producer !== last.receiver;
    if (notOwner) faults.push({ kind: "producer" });
    const path = request.path;
    const recorded = task.path;
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
    return faults;
  }

  /** The claim of a task the store does not know (new, or forgotten): nothing to be out of turn with. */
  function firstOfTask(request: ClaimRequest): ClaimResult {
    if (request.verdict === "rejected") return { outcome: "noted", attempt: refuse(request) };
    const claim = hopOwner(request, null);
    accepted.set(request.handoffId, claim);
    remember(request.taskId, { last: claim, refusals: null, path: request.path ?? null, ended: undefined, touched: request.at });
    return CLAIMED;
  }

  return {
    claim(request: ClaimRequest): ClaimResult {
      sweep(request.at);
      const earlier = accepted.get(request.handoffId);
      if (earlier !== undefined) return { outcome: "duplicate", of: "handoff", holder: holder(earlier) };
      const task = tasks.get(request.taskId);
      if (task === undefined) return firstOfTask(request);
      if (task.ended !== undefined) return { outcome: "finished", ended: task.ended };
      const last = task.last;
      // Indexes fall along the chain, so the search stops at the first hop not past the request's.
      let owner = last;
      while (owner !== null && owner.hopIndex > request.hopIndex) owner = owner.previous;
      if (owner !== null && owner.hopIndex === request.hopIndex) {
        // The same step again (same producer, same receiver) under a fresh id: a replay.
        if (owner.receiver === request.receiver && owner.producer === request.producer) return { outcome: "duplicate", of: "hop", holder: holder(owner) };
        // Another receiver for a hop taken, from anyone but the current owner: two owners of one hop.
        if (owner.receiver !== request.receiver && !(graphWide && request.producer === (last as HopOwner).receiver)) {
          return { outcome: "owner-conflict", owner: owner.receiver, attempt: refuse(request) };
        }
        // Otherwise a new step under an old number: the counter went backwards (below).
      }
      if (last !== null) {
        const faults = custodyFaults(request, task, last);
        if (faults.length > 0) return { outcome: "custody", owner: last.receiver, lastHop: last.hopIndex, faults, attempt: refuse(request) };
      }
      if (request.verdict === "rejected") return { outcome: "noted", attempt: refuse(request) };
      // Resets are refused, so a claimed hop is always past the last: the chain stays in index order.
      const claim = hopOwner(request, last);
      accepted.set(request.handoffId, claim);
      task.last = claim;
      task.path = request.path ?? null;
      touch(request.taskId, task, request.at);
      return CLAIMED;
    },

    finish(request: FinishRequest): FinishResult {
      sweep(request.at);
      const task = ledgerOf(request.taskId, request.at);
      if (task.ended !== undefined) return { outcome: "already-finished", ended: task.ended };
      const last = task.last;
      if (graphWide && last !== null && last.receiver !== request.agent) return { outcome: "not-owner", owner: last.receiver, lastHop: last.hopIndex };
      const ended: TaskEnd = { agent: request.agent, terminal: request.terminal, outcome: request.outcome, at: request.at, hopIndex: last === null ? null : last.hopIndex };
      task.ended = ended;
      touch(request.taskId, task, request.at);
      return { outcome: "finished", ended };
    },
  };
}

/** The answer to every claimed delivery: it carries nothing, so one object serves them all. */
const CLAIMED: ClaimResult = Object.freeze({ outcome: "claimed" });

function hopOwner(request: ClaimRequest, previous: HopOwner | null): HopOwner {
  return { hopIndex: request.hopIndex, handoffId: request.handoffId, producer: request.producer, receiver: request.receiver, at: request.at, previous };
}

function holder(claim: HopOwner): ClaimHolder {
  return { handoffId: claim.handoffId, receiver: claim.receiver, at: claim.at };
}
