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

import { addCounts } from "./budget-counts.js";
import { BUDGET_COUNTERS, type BudgetCounter } from "./checks/budget-exhausted.js";
import type { Overcommit } from "./checks/budget-overcommitted.js";
import { envelopeDigest } from "./envelope-digest.js";
import { HandoffIndex } from "./handoff-index.js";
import type { FanBranch } from "./fan-out-map.js";

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
   * The envelope's whole-number budget counters, `null` when it has no budget or its `hop.branch`
   * was refused (its line of the task is unknown, so no line's budget is its to compare): compared with the
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
   * The fan-out branch the delivery travels in, `null` (or absent) outside one: each branch is
   * its own owner slot, and the store holds the task at the fan-out's join. A store written
   * before fan-outs may ignore it (and then refuses a second branch as an owner conflict).
   */
  readonly branch?: ClaimBranch | null;
  /**
   * What the delivery says of approvals, for graphs whose envelope has the approval record (1.4
   * and later); `null` or absent before, and then the store keeps no approvals. A store written
   * before it may ignore it.
   */
  readonly approval?: ClaimApproval | null;
}

/**
 * The join that waits for a fan-out's branches: its agent, how many branches it needs (all, 1 for
 * `any`, or k), its deadline and its failure policy (docs/language.md, Fan-out and joins).
 */
export interface ClaimJoin {
  readonly agent: string;
  readonly need: number;
  /** `within N seconds`, in milliseconds from the fan-out (the ledger's time of its first delegation); `null` without a deadline. */
  readonly withinMs: number | null;
  /** `otherwise`: `"escalate"`, or the id of the join agent's terminal that ends the task. */
  readonly otherwise: string;
  /** That terminal's outcome (`complete`, `failed`, `escalate`); `null` for `"escalate"`. */
  readonly outcome: string | null;
}

/**
 * A join given up on, as the store answers it (claim outcome `join`, `finish`, `joinState`): its
 * deadline passed before its condition was met (`expired`), or the branches that ended at a
 * terminal of their own leave too few to meet it (`failed`). The store acts on the join's policy
 * once, in the call that first finds it so (`acts: true`): with `otherwise escalate` the join
 * stops holding the task and the task goes to a person; with `otherwise NAME` the store ends the
 * task at terminal NAME of the join agent. Every later answer has `acts: false`.
 */
export interface JoinClosed {
  readonly state: "expired" | "failed";
  readonly join: string;
  /** `"escalate"` or the join agent's terminal. */
  readonly policy: string;
  /** This call acted on the policy (the first to find the join given up on). */
  readonly acts: boolean;
  /** The branches the join did not get, in graph order. */
  readonly missing: readonly string[];
  /** The branches that ended at a terminal of their own, in the order they ended. */
  readonly ended: readonly string[];
  /** The deadline, in ms since the Unix epoch; `null` when the join has none. */
  readonly deadline: number | null;
}

/**
 * What `joinState` answers for a task: `none` (no fan-out with a join), `waiting` (the join
 * waits, its deadline not passed and its condition still possible), `fired` (its condition was
 * met), or a join given up on ({@link JoinClosed}, `expired` or `failed`).
 */
export type JoinStateResult =
  | { readonly state: "none" }
  | {
      readonly state: "waiting" | "fired";
      readonly join: string;
      readonly policy: string;
      readonly arrived: readonly string[];
      readonly missing: readonly string[];
      readonly ended: readonly string[];
      readonly deadline: number | null;
    }
  | (JoinClosed & { readonly arrived: readonly string[] });

/** A `joinState` request: the task, and the time of the call (ms since the Unix epoch). */
export interface JoinStateRequest {
  readonly taskId: string;
  readonly at: number;
}

/**
 * The fan-out branch a delivery travels in (its `hop.branch`, checked against the graph), with
 * what the graph says of its fan-out ({@link FanBranch}: id `NAME/AGENT`, fan-out name,
 * supervisor, branch agent, sibling ids in edge order, join), so the store needs no graph of its own.
 */
export interface ClaimBranch extends FanBranch {
  /** The delivery is the fan-out's delegation of this branch (it opens the branch). */
  readonly opens: boolean;
  /** The delivery reaches the join from one of its inputs (the branch arrives). */
  readonly arrives: boolean;
}

/** A join after an arrival was claimed: which branches arrived, which it still waits for, and whether it fired. */
export interface JoinState {
  readonly agent: string;
  /** The branches that arrived, in arrival order. */
  readonly arrived: readonly string[];
  /** The fan-out's branches that have not arrived, in graph order. */
  readonly waiting: readonly string[];
  /** This arrival met the join's condition: the task goes on, once, from the join. */
  readonly fired: boolean;
  /** When fired, the hop the task goes on from (the longest branch's arrival); else `null`. */
  readonly hop: number | null;
  /**
   * When fired, the task's spend as the ledger now holds it: the parent's at the fan-out plus
   * every branch's latest (those the join did not wait for too); the next hop reports at least
   * this. `null` before the join fires, or when no counter was reported.
   */
  readonly consumed: { readonly [counter: string]: number } | null;
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
 *   handoff than `expected`, the task's last accepted one (graph scope; `""` when the task has no
 *   accepted handoff, so that any citation is of a handoff not of this task).
 */
export type CustodyFault =
  | { readonly kind: "reset" }
  | { readonly kind: "skip" }
  | { readonly kind: "producer" }
  | { readonly kind: "path"; readonly index: number; readonly expected: string }
  | { readonly kind: "budget-limit" | "budget-consumed"; readonly counter: string; readonly before: number; readonly hop: number }
  | { readonly kind: "approval"; readonly pending: string }
  | { readonly kind: "approval-cite"; readonly expected: string }
  | ({ readonly kind: "budget-overcommitted" } & Overcommit);

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
 * - `branch`: the delivery is out of turn for the task's fan-out (`state`): `open`, a hop outside
 *   the branches (or the task's end) while the join `join` waits for `missing`; `late`, a hop in
 *   a branch after the join fired at hop `hop` on `arrived`; `arrived`, a hop in a branch that
 *   reached the join at hop `hop`; `unopened`, a hop in a branch the task has not opened;
 *   `reopened`, the delegation of a branch opened at hop `hop`; `ended`, a hop in a branch that
 *   ended at a terminal of its own at hop `hop`. `late`, `arrived` and `ended` are not counted
 *   (the task went on without them); the others count a refusal (`attempt`).
 * - `join`: the task's join was given up on ({@link JoinClosed}): its deadline passed or its
 *   condition can no longer be met. Not counted; `acts` marks the one answer that acted on the
 *   join's policy.
 * A `claimed` arrival at a join carries the join's state (`join`).
 */
export type ClaimResult =
  | { readonly outcome: "claimed"; readonly leaseUntil?: number; readonly join?: JoinState }
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
  | { readonly outcome: "finished"; readonly ended: TaskEnd }
  | ({ readonly outcome: "join" } & JoinClosed)
  | {
      readonly outcome: "branch";
      readonly state: "open" | "late" | "arrived" | "unopened" | "reopened" | "ended";
      /** The join agent (`open`, `late`, `arrived`); `null` otherwise. */
      readonly join: string | null;
      /** `open`: the branches the join still waits for, in graph order; else empty. */
      readonly missing: readonly string[];
      /** `late`: the branches the join fired on; else empty. */
      readonly arrived: readonly string[];
      /** `late`: the hop the join fired at; `arrived`: the branch's arrival; `reopened`: its opening; else `null`. */
      readonly hop: number | null;
      readonly attempt?: number;
    };

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
 * - `already-finished`: nothing written; the task ended before (`ended`);
 * - `branch-open`: nothing written: the join `join` still waits for the branches `missing`;
 * - `branch-finished`: `agent` owns the branch `branch` of the task's fan-out (the receiver of its
 *   last hop), and the branch ended at the terminal (the task goes on; `ended.hopIndex` is the
 *   branch's last hop).
 * With `join`, this call found the task's join given up on and acted on its policy (`finished`:
 * the join agent's policy terminal; `branch-finished`: the branch's end left the join too few
 * branches).
 */
export type FinishResult =
  | { readonly outcome: "finished"; readonly ended: TaskEnd; readonly join?: JoinClosed }
  | { readonly outcome: "branch-finished"; readonly branch: string; readonly ended: TaskEnd; readonly join?: JoinClosed }
  | { readonly outcome: "branch-open"; readonly join: string; readonly missing: readonly string[] }
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
  /**
   * Whether the store may lease a claim, and so reads `request.token` (optional; absent counts
   * as `true`). `false`: it never leases, so `accept()` makes no random token for its claims
   * (`request.token` is then the caller's `claimToken`, or undefined).
   */
  readonly leases?: boolean;
  finish?(request: FinishRequest): FinishResult;
  settle?(request: SettleRequest): SettleResult;
  /** The task's join (optional): acts on its policy once, when it finds the join given up on (see {@link JoinClosed}). */
  joinState?(request: JoinStateRequest): JoinStateResult;
}

/**
 * An asynchronous store, for `acceptAsync()` (Redis, SQL): the same contract as
 * {@link SeenStore}, answered by a promise. A synchronous store is also an asynchronous one.
 * A rejected promise is thrown by `acceptAsync()` (an unavailable store is not bad input).
 */
export interface AsyncSeenStore {
  claim(request: ClaimRequest): ClaimResult | PromiseLike<ClaimResult>;
  /** As {@link SeenStore.leases}. */
  readonly leases?: boolean;
  finish?(request: FinishRequest): FinishResult | PromiseLike<FinishResult>;
  settle?(request: SettleRequest): SettleResult | PromiseLike<SettleResult>;
  joinState?(request: JoinStateRequest): JoinStateResult | PromiseLike<JoinStateResult>;
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

/** One branch of a fan-out, as the ledger keeps it: its own chain of hops, path and budget. */
interface BranchLedger {
  readonly id: string;
  /** The branch's delegation; `null` for a branch a receiver-scoped store first saw inside. */
  readonly opened: HopOwner | null;
  /** The branch's last accepted hop (its owner is that hop's receiver). */
  last: HopOwner | null;
  path: readonly string[] | null;
  budget: ClaimBudget | null;
  /** The hop by which it reached the join; `null` while it has not. */
  arrived: HopOwner | null;
  /** How it ended at a terminal of its own (`finish` by its owner); `null` while it has not. */
  ended: TaskEnd | null;
}

/** The task's latest fan-out: where it left the task, its branches, and its join. */
interface FanLedger {
  readonly fanOut: string;
  readonly from: string;
  /** The task's last accepted hop when it fanned out (its branches open at the next index); 0 for none. */
  readonly baseHop: number;
  /** That hop (`null` when the fan-out is the task's first hop, or a receiver's store did not see it). */
  readonly base: HopOwner | null;
  /** That hop's path and budget: where the branches start, and what they share. */
  readonly basePath: readonly string[] | null;
  readonly baseBudget: ClaimBudget | null;
  readonly siblings: readonly string[];
  readonly join: ClaimJoin | null;
  /** The branches opened, in opening order. */
  readonly branches: Map<string, BranchLedger>;
  /** The branches that reached the join, in arrival order. */
  readonly arrived: BranchLedger[];
  /** The arrival that met the join's condition; `null` until then. */
  fired: HopOwner | null;
  /** When the join gives up (ms since the Unix epoch): the fan-out's first delegation plus `within`; `null` without one. */
  readonly deadline: number | null;
  /** The branches that ended at a terminal of their own, in the order they ended. */
  readonly ended: string[];
  /** The join given up on (its policy acted on), and why; `null` until then. */
  closed: "expired" | "failed" | null;
}

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
  /** The latest fan-out; null before the first (most tasks have none). */
  fan: FanLedger | null;
  /** Every accepted hop in a branch, for expiry (branch hops hang off no single chain). */
  branchHops: HopOwner[] | null;
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
  const accepted = new HandoffIndex<HopOwner>();
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
      for (let hop = task.last; hop !== null; hop = hop.previous) accepted.delete(hop.producer, hop.handoffId);
      for (const hop of task.branchHops ?? []) accepted.delete(hop.producer, hop.handoffId);
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

  /**
   * What is out of turn about a delivery at `hopIndex` to a chain (the task's, or a branch's)
   * whose last accepted hop is `last` and whose recorded path and budget are `chain`'s. A
   * branch's delegation (`split`) takes a share of the parent's budget instead of carrying it on.
   */
  function custodyFaults(request: ClaimRequest, hopIndex: number, chain: { readonly path: readonly string[] | null; readonly budget: ClaimBudget | null } | undefined, last: HopOwner | null, split?: FanSplit): CustodyFault[] | undefined {
    if (last === null) {
      if (!graphWide) return undefined;
      // Graph-wide, every hop of a task passes through this store: an unknown task starts at 1,
      // and has no handoff that waited for the approval it would cite.
      const faults: CustodyFault[] = hopIndex === 1 ? [] : [{ kind: hopIndex < 1 ? "reset" : "skip" }];
      if (request.approval?.cites != null) faults.push({ kind: "approval-cite", expected: "" });
      return faults.length > 0 ? faults : undefined;
    }
    const faults: CustodyFault[] = [];
    if (hopIndex <= last.hopIndex) faults.push({ kind: "reset" });
    if (graphWide) {
      if (hopIndex > last.hopIndex + 1) faults.push({ kind: "skip" });
      const notOwner = request.producer !== last.receiver;
      if (notOwner) faults.push({ kind: "producer" });
      const path = request.path;
      const recorded = (chain as { readonly path: readonly string[] | null }).path;
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
    if (split !== undefined) overcommitFaults(request.budget, split, faults);
    else if (chain !== undefined) budgetFaults(request.budget, chain.budget, last.hopIndex, faults);
    // Approvals are the task's own (a branch keeps none): only its chain is checked for them.
    if (chain !== undefined && "pending" in chain) approvalFaults(request.approval, (chain as TaskLedger).pending, graphWide ? last.handoffId : null, faults);
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

  /** The open branch of the task's fan-out that `agent` owns (the receiver of its last hop), not arrived nor ended; `null` when none. */
  function ownedBranch(task: TaskLedger, agent: string): BranchLedger | null {
    for (const branch of task.fan?.branches.values() ?? []) {
      if (branch.arrived === null && branch.ended === null && branch.last !== null && branch.last.receiver === agent) return branch;
    }
    return null;
  }

  /** Closes a branch at its owner's terminal; its end may leave the join too few branches (acted on at once). */
  function finishBranch(task: TaskLedger, branch: BranchLedger, request: FinishRequest): FinishResult {
    const fan = task.fan as FanLedger;
    const ended: TaskEnd = { agent: request.agent, terminal: request.terminal, outcome: request.outcome, at: request.at, hopIndex: (branch.last as HopOwner).hopIndex };
    branch.ended = ended;
    fan.ended.push(branch.id);
    touch(task, request.at);
    const acted = actOnJoin(task, request.at);
    return { outcome: "branch-finished", branch: branch.id, ended, ...(acted === null ? {} : { join: acted }) };
  }

  /**
   * Join deadlines and policies: when the task's join is given up on at `at` (see
   * {@link joinDue}), acts on its policy, once: the join stops holding the task, and with
   * `otherwise NAME` the task ends at that terminal of the join agent. The answer, `acts: true`;
   * `null` when nothing was due.
   */
  function actOnJoin(task: TaskLedger, at: number): JoinClosed | null {
    const fan = task.fan;
    if (fan === null || task.ended !== undefined) return null;
    const due = joinDue(fan, at);
    if (due === null) return null;
    fan.closed = due;
    const join = fan.join as ClaimJoin;
    if (join.otherwise !== "escalate") {
      task.ended = { agent: join.agent, terminal: join.otherwise, outcome: join.outcome ?? "failed", at, hopIndex: task.last === null ? null : task.last.hopIndex };
    }
    touch(task, at);
    return closedJoin(fan, true);
  }

  /** Records an accepted hop in a branch: its handoff, its place in the branch, the task's new round. */
  function claimBranchHop(request: ClaimRequest, task: TaskLedger, branch: BranchLedger, claim: HopOwner): void {
    accepted.set(claim.producer, claim.handoffId, claim);
    (task.branchHops ??= []).push(claim);
    branch.last = claim;
    branch.path = request.path ?? null;
    branch.budget = request.budget ?? null;
    task.refusals = null;
    touch(task, request.at);
  }

  /**
   * A delivery in a fan-out branch (the module comment, and docs/store-protocol.md): the branch's
   * delegation opens it, taking a share of the parent's budget; a hop inside it follows the
   * branch's own chain; an arrival at the join is taken once, and the arrival that meets the
   * join's condition moves the task on from the longest branch, with the branches' spend added
   * back. Steps 0 to 2 of `claim` (unusable header, redelivery, ended task) ran before.
   */
  function claimInBranch(request: ClaimRequest, b: ClaimBranch, handoffId: string, hopIndex: number, known: TaskLedger | undefined): ClaimResult {
    const fan = known?.fan ?? null;
    const current = fan !== null && fan.fanOut === b.fanOut && fan.from === b.from ? fan : null;
    // A branch's claims are committed when made: leases cover the task's own chain only.
    const make = (previous: HopOwner | null): HopOwner => ({ hopIndex, handoffId, producer: request.producer, receiver: request.receiver, at: request.at, previous, taskId: request.taskId, token: null, until: null, digest: null });
    const isReplayOf = (hop: HopOwner | null): boolean =>
      hop !== null && hop.hopIndex === hopIndex && hop.producer === request.producer && hop.receiver === request.receiver;
    if (b.opens) {
      if (current !== null && hopIndex === current.baseHop + 1) {
        // Another branch of the fan-out the task is in.
        const open = current.branches.get(b.id);
        if (open !== undefined) {
          if (open.opened !== null && open.last === open.opened && isReplayOf(open.opened)) return { outcome: "duplicate", of: "hop", holder: holder(open.opened) };
          return { outcome: "branch", state: "reopened", join: null, missing: [], arrived: [], hop: open.opened?.hopIndex ?? null, attempt: refuse(request, known) };
        }
        if (current.closed !== null) return { outcome: "join", ...closedJoin(current, false) };
        if (current.fired !== null) return lateAnswer(current);
        const task = known as TaskLedger;
        const split: FanSplit = { parent: current.baseBudget, hop: current.baseHop, taken: [...current.branches.values()].map((other) => other.budget) };
        const faults = custodyFaults(request, hopIndex, { path: current.basePath, budget: current.baseBudget }, current.base, split);
        if (faults !== undefined) return custodyAnswer(request, known, current.base, faults);
        if (request.verdict === "rejected") return { outcome: "noted", attempt: refuse(request, known) };
        const claim = make(current.base);
        const branch: BranchLedger = { id: b.id, opened: claim, last: null, path: null, budget: null, arrived: null, ended: null };
        current.branches.set(b.id, branch);
        claimBranchHop(request, task, branch, claim);
        return CLAIMED;
      }
      // A new fan-out from where the task is now: judged against its chain, like any next hop.
      const last = known === undefined ? null : known.last;
      const waiting = known === undefined ? null : waitingJoin(known);
      if (waiting !== null) return { ...waiting, attempt: refuse(request, known) };
      const parent = known?.budget ?? null;
      const faults = custodyFaults(request, hopIndex, known, last, { parent, hop: last === null ? 0 : last.hopIndex, taken: [] });
      if (faults !== undefined) return custodyAnswer(request, known, last, faults);
      if (request.verdict === "rejected") return { outcome: "noted", attempt: refuse(request, known) };
      const task = known ?? remember(emptyLedger(request.taskId, request.at));
      const claim = make(last);
      const branch: BranchLedger = { id: b.id, opened: claim, last: null, path: null, budget: null, arrived: null, ended: null };
      task.fan = {
        fanOut: b.fanOut,
        from: b.from,
        baseHop: last === null ? hopIndex - 1 : last.hopIndex,
        base: last,
        basePath: known?.path ?? null,
        baseBudget: parent,
        siblings: b.siblings,
        join: b.join,
        branches: new Map([[b.id, branch]]),
        arrived: [],
        fired: null,
        deadline: deadlineOf(b.join, request.at),
        ended: [],
        closed: null,
      };
      claimBranchHop(request, task, branch, claim);
      return CLAIMED;
    }
    // A hop inside a branch.
    let branch = current?.branches.get(b.id);
    if (branch === undefined) {
      // Graph-wide, every branch opens through this store; a receiver's store first sees it here.
      if (graphWide || (current !== null && (current.fired !== null || current.closed !== null))) {
        if (current !== null && current.closed !== null) return { outcome: "join", ...closedJoin(current, false) };
        if (current !== null && current.fired !== null) return lateAnswer(current);
        return { outcome: "branch", state: "unopened", join: null, missing: [], arrived: [], hop: null, attempt: refuse(request, known) };
      }
      const task = known ?? remember(emptyLedger(request.taskId, request.at));
      let seen = current;
      if (seen === null) {
        seen = { fanOut: b.fanOut, from: b.from, baseHop: -1, base: null, basePath: null, baseBudget: null, siblings: b.siblings, join: b.join, branches: new Map(), arrived: [], fired: null, deadline: deadlineOf(b.join, request.at), ended: [], closed: null };
        task.fan = seen;
      }
      branch = { id: b.id, opened: null, last: null, path: null, budget: null, arrived: null, ended: null };
      seen.branches.set(b.id, branch);
      return claimInside(request, b, task, seen, branch, make, isReplayOf);
    }
    return claimInside(request, b, known as TaskLedger, current as FanLedger, branch, make, isReplayOf);
  }

  /** A hop inside an opened branch: the branch's own chain of custody, then the join. */
  function claimInside(
    request: ClaimRequest,
    b: ClaimBranch,
    task: TaskLedger,
    fan: FanLedger,
    branch: BranchLedger,
    make: (previous: HopOwner | null) => HopOwner,
    isReplayOf: (hop: HopOwner | null) => boolean,
  ): ClaimResult {
    const hopIndex = request.hopIndex as number;
    const last = branch.last;
    if (branch.arrived !== null) {
      if (isReplayOf(branch.arrived)) return { outcome: "duplicate", of: "hop", holder: holder(branch.arrived) };
      return { outcome: "branch", state: "arrived", join: fan.join?.agent ?? null, missing: [], arrived: [], hop: branch.arrived.hopIndex };
    }
    if (branch.ended !== null) return { outcome: "branch", state: "ended", join: fan.join?.agent ?? null, missing: [], arrived: [], hop: branch.ended.hopIndex };
    if (fan.closed !== null) return { outcome: "join", ...closedJoin(fan, false) };
    if (fan.fired !== null) return lateAnswer(fan);
    const taken = takenHop(request, hopIndex, last, task);
    if (taken !== undefined) return taken;
    const faults = custodyFaults(request, hopIndex, branch, last);
    if (faults !== undefined) return custodyAnswer(request, task, last, faults);
    if (request.verdict === "rejected") return { outcome: "noted", attempt: refuse(request, task) };
    const claim = make(last);
    claimBranchHop(request, task, branch, claim);
    if (!b.arrives || fan.join === null) return CLAIMED;
    branch.arrived = claim;
    fan.arrived.push(branch);
    const fired = fan.arrived.length >= fan.join.need;
    let hop: number | null = null;
    if (fired) {
      // The task goes on from the longest branch (the first to arrive of equals), with every branch's spend.
      let longest = fan.arrived[0] as BranchLedger;
      for (const other of fan.arrived) if ((other.arrived as HopOwner).hopIndex > (longest.arrived as HopOwner).hopIndex) longest = other;
      fan.fired = claim;
      task.last = longest.arrived;
      task.path = longest.path;
      task.budget = joinedBudget(fan.baseBudget, [...fan.branches.values()].map((other) => other.budget));
      hop = (longest.arrived as HopOwner).hopIndex;
    }
    const arrived = fan.arrived.map((other) => other.id);
    return {
      outcome: "claimed",
      join: { agent: fan.join.agent, arrived, waiting: fan.siblings.filter((id) => !arrived.includes(id)), fired, hop, consumed: fired ? (task.budget?.consumed ?? null) : null },
    };
  }

  /**
   * The answer to a delivery of a hop at or before `last` (the chain's last accepted hop, of the
   * task or of a branch), or undefined when the chain's custody checks decide it: the latest step
   * again (same producer and receiver) under a fresh id is a replay; another receiver for a hop
   * taken, from anyone but the current owner, is a second owner; an older number again is a
   * counter going backwards, which the custody checks report.
   */
  function takenHop(request: ClaimRequest, hopIndex: number, last: HopOwner | null, task: TaskLedger | undefined): ClaimResult | undefined {
    if (last === null || hopIndex > last.hopIndex) return undefined;
    if (hopIndex === last.hopIndex && last.receiver === request.receiver && last.producer === request.producer) {
      return { outcome: "duplicate", of: "hop", holder: holder(last) };
    }
    // Indexes fall along the chain, so the search stops at the first hop not past the request's.
    let owner: HopOwner | null = last;
    while (owner !== null && owner.hopIndex > hopIndex) owner = owner.previous;
    if (owner !== null && owner.hopIndex === hopIndex && owner.receiver !== request.receiver && !(graphWide && request.producer === last.receiver)) {
      return { outcome: "owner-conflict", owner: owner.receiver, attempt: refuse(request, task) };
    }
    return undefined;
  }

  /** The `branch-late` answer of a fan-out whose join fired. */
  function lateAnswer(fan: FanLedger): ClaimResult {
    return { outcome: "branch", state: "late", join: fan.join?.agent ?? null, missing: [], arrived: fan.arrived.map((branch) => branch.id), hop: (fan.fired as HopOwner).hopIndex };
  }

  /** The answer to a custody fault: the chain's owner and last hop, and the counted refusal. */
  function custodyAnswer(request: ClaimRequest, task: TaskLedger | undefined, last: HopOwner | null, faults: CustodyFault[]): ClaimResult {
    return { outcome: "custody", owner: last === null ? null : last.receiver, lastHop: last === null ? null : last.hopIndex, faults, attempt: refuse(request, task) };
  }

  return {
    leases: leaseMs > 0,

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
      const earlier = accepted.get(request.producer, handoffId);
      const task = tasks.get(request.taskId);
      if (earlier !== undefined) {
        if (task !== undefined && isOpenLease(earlier, request, task)) return redeliverLeased(earlier, request, task);
        return { outcome: "duplicate", of: "handoff", holder: holder(earlier) };
      }
      // Join deadlines: the first call to find the task's join given up on acts on its policy.
      const acted = task === undefined ? null : actOnJoin(task, request.at);
      if (acted !== null) return { outcome: "join", ...acted };
      if (task?.ended !== undefined) return { outcome: "finished", ended: task.ended };
      if (request.branch != null) return claimInBranch(request, request.branch, handoffId, hopIndex, task);
      const last = task === undefined ? null : task.last;
      const taken = takenHop(request, hopIndex, last, task);
      if (taken !== undefined) return taken;
      // A join waiting for branches holds the task: nothing goes on outside them (branch-open).
      const waiting = task === undefined ? null : waitingJoin(task);
      if (waiting !== null) return { ...waiting, attempt: refuse(request, task) };
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
      accepted.set(request.producer, handoffId, claim);
      if (task === undefined) {
        remember({
          last: claim,
          refusals: null,
          path: request.path ?? null,
          budget: request.budget ?? null,
          pending: request.approval?.waits === true ? handoffId : null,
          ended: undefined,
          fan: null,
          branchHops: null,
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
      const hop = accepted.get(request.producer, request.handoffId);
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
      // Join deadlines: a join given up on acts first; its policy terminal is the join agent's end.
      const acted = task === undefined ? null : actOnJoin(task, request.at);
      // (Re-read: actOnJoin may have ended the task.)
      const byPolicy = task?.ended as TaskEnd | undefined;
      if (byPolicy !== undefined) {
        if (request.agent === byPolicy.agent && request.terminal === byPolicy.terminal) return { outcome: "finished", ended: byPolicy, ...(acted === null ? {} : { join: acted }) };
        return { outcome: "already-finished", ended: byPolicy };
      }
      const last = task === undefined ? null : task.last;
      if (graphWide && task !== undefined) {
        const waiting = waitingJoin(task);
        // The task's end waits for the join, like its next hop (branch-open).
        if (waiting !== null && (request.agent === waiting.join || (last === null ? request.entry : last.receiver === request.agent))) {
          return { outcome: "branch-open", join: waiting.join as string, missing: waiting.missing };
        }
      }
      // A branch ending at a terminal of its own: its owner closes it, and the task goes on.
      const own = graphWide && task !== undefined && (last === null || last.receiver !== request.agent) ? ownedBranch(task, request.agent) : null;
      if (own !== null) return finishBranch(task as TaskLedger, own, request);
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
      return { outcome: "finished", ended, ...(acted === null ? {} : { join: acted }) };
    },

    joinState(request: JoinStateRequest): JoinStateResult {
      sweep(request.at);
      const task = tasks.get(request.taskId);
      const fan = task?.fan ?? null;
      if (task === undefined || fan === null || fan.join === null) return { state: "none" };
      const arrived = fan.arrived.map((branch) => branch.id);
      const acted = actOnJoin(task, request.at);
      if (acted !== null) return { ...acted, arrived };
      if (fan.closed !== null) return { ...closedJoin(fan, false), arrived };
      return { state: fan.fired === null ? "waiting" : "fired", join: fan.join.agent, policy: fan.join.otherwise, arrived, missing: missingOf(fan), ended: [...fan.ended], deadline: fan.deadline };
    },
  };
}

/** The answer to every claimed delivery without a lease: it carries nothing, so one object serves them all. */
const CLAIMED: ClaimResult = Object.freeze({ outcome: "claimed" });

const COMMITTED: SettleResult = Object.freeze({ outcome: "committed" });

function emptyLedger(taskId: string, at: number): TaskLedger {
  return { last: null, refusals: null, path: null, budget: null, pending: null, ended: undefined, fan: null, branchHops: null, touched: at, taskId, older: null, newer: null };
}

/** The join's deadline for a fan-out opened at `at`; `null` without a join or a `within`. */
function deadlineOf(join: ClaimJoin | null, at: number): number | null {
  return join === null || join.withinMs === null || join.withinMs === undefined ? null : at + join.withinMs;
}

/**
 * Whether the fan-out's join is given up on at `at` and not acted on yet: `expired` once its
 * deadline passed, else `failed` when the branches that ended at a terminal of their own leave
 * fewer than it needs; `null` otherwise (no join, fired, acted on, or still possible).
 */
export function joinDue(fan: { readonly join: ClaimJoin | null; readonly fired: unknown; readonly closed: unknown; readonly deadline: number | null; readonly siblings: readonly string[]; readonly ended: readonly string[] }, at: number): "expired" | "failed" | null {
  if (fan.join === null || fan.fired !== null || fan.closed !== null) return null;
  if (fan.deadline !== null && at >= fan.deadline) return "expired";
  let possible = 0;
  for (const id of fan.siblings) if (!fan.ended.includes(id)) possible++;
  return possible < fan.join.need ? "failed" : null;
}

/** The branches of a fan-out its join has not had, in graph order. */
function missingOf(fan: FanLedger): string[] {
  return fan.siblings.filter((id) => !fan.arrived.some((branch) => branch.id === id));
}

/** The answer for a join given up on (`fan.closed` set). */
function closedJoin(fan: FanLedger, acts: boolean): JoinClosed {
  const join = fan.join as ClaimJoin;
  return { state: fan.closed as "expired" | "failed", join: join.agent, policy: join.otherwise, acts, missing: missingOf(fan), ended: [...fan.ended], deadline: fan.deadline };
}

/** The `branch-open` answer while the task's latest fan-out has a join that has not fired; `null` when nothing holds the task. */
function waitingJoin(task: TaskLedger): Extract<ClaimResult, { outcome: "branch" }> | null {
  const fan = task.fan;
  if (fan === null || fan.join === null || fan.fired !== null || fan.closed !== null) return null;
  const missing = fan.siblings.filter((id) => !fan.arrived.some((branch) => branch.id === id));
  return { outcome: "branch", state: "open", join: fan.join.agent, missing, arrived: [], hop: null };
}

/** What a branch's delegation splits: the parent's budget at the fan-out (hop `hop`) and the limits its other branches took. */
interface FanSplit {
  readonly parent: ClaimBudget | null;
  readonly hop: number;
  readonly taken: readonly (ClaimBudget | null)[];
}

/**
 * The `budget-overcommitted` faults of a branch's delegation: for each counter the parent
 * limits, the branch must set a limit, and the branches' limits together fit in the parent's
 * limit less its spend. Counters in schema order.
 */
export function overcommitFaults(budget: ClaimBudget | null | undefined, split: FanSplit, faults: CustodyFault[]): void {
  const { parent } = split;
  if (budget == null || parent === null || parent.limit === null) return;
  for (const counter of BUDGET_COUNTERS) {
    const limitOf = parent.limit[counter];
    if (limitOf === undefined) continue;
    const spent = parent.consumed?.[counter] ?? 0;
    const limit = budget.limit?.[counter];
    let taken = 0;
    for (const other of split.taken) taken += other?.limit?.[counter] ?? 0;
    if (limit === undefined) faults.push({ kind: "budget-overcommitted", counter, limit: null, parent: limitOf, spent, hop: split.hop, taken });
    else if (taken + limit > limitOf - spent) faults.push({ kind: "budget-overcommitted", counter, limit, parent: limitOf, spent, hop: split.hop, taken });
  }
}

/**
 * The task's budget once its join fired: the parent's limits, and its spend at the fan-out plus
 * every branch's latest spend (the ledger adds the branches' spend back). A fan-out from a base
 * with no budget (one at the entry, before any hop) has no parent's limits: the task then holds
 * what its branches were given, each counter's limit the sum of every branch's, and no limit of a
 * counter some branch left unlimited. Sums stop at 2^53 - 1 ({@link addCounts}). `null` when
 * neither the parent nor any branch reported a budget.
 */
export function joinedBudget(parent: ClaimBudget | null, branches: Iterable<ClaimBudget | null>): ClaimBudget | null {
  const budgets = [...branches];
  let consumed: Record<string, number> | null = parent?.consumed === null || parent === null ? null : { ...parent.consumed };
  let any = parent !== null;
  for (const budget of budgets) {
    if (budget === null) continue;
    any = true;
    for (const counter of BUDGET_COUNTERS) {
      const spent = budget.consumed?.[counter];
      if (spent === undefined) continue;
      consumed ??= {};
      consumed[counter] = addCounts(consumed[counter] ?? 0, spent);
    }
  }
  if (!any) return null;
  return { limit: parent === null ? branchLimits(budgets) : parent.limit, consumed };
}

/** Each counter's limit summed over `budgets`, for the counters every one of them limits; `null` when none is. */
function branchLimits(budgets: readonly (ClaimBudget | null)[]): Record<string, number> | null {
  let limit: Record<string, number> | null = null;
  for (const counter of BUDGET_COUNTERS) {
    if (!budgets.every((budget) => budget?.limit?.[counter] !== undefined)) continue;
    limit ??= {};
    limit[counter] = budgets.reduce((sum, budget) => addCounts(sum, budget?.limit?.[counter] ?? 0), 0);
  }
  return limit;
}

function holder(claim: HopOwner): ClaimHolder {
  return { handoffId: claim.handoffId, receiver: claim.receiver, at: claim.at };
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
