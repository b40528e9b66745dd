/**
 * `accept()` and `acceptAsync()`: the check every agent service runs when work arrives.
 * Validate at ingest, collect every error, refuse rather than repair: one delivery gets one
 * verdict that lists every reason, so a producer needs one repair round trip, not one per fault.
 *
 * A call has four steps:
 * 1. the caller's options are checked; a misuse throws a `TypeError` at once (it is the calling
 *    service's bug, never the producer's);
 * 2. the envelope's content ({@link createEnvelopeCheck}): the JSON Schema (every error), then
 *    every semantic and graph check whose inputs are well-typed, whatever else is wrong;
 * 3. `canRead` for each required artefact (awaited by `acceptAsync`);
 * 4. one `claim` on the store with the verdict so far, for every envelope with a string
 *    `task_id`: the store alone decides duplicates, replays, the one owner of each hop and the
 *    task ledger (custody, monotonic hops, refusal counts, ended tasks; see `seen-store.ts`).
 *    An envelope with no string `task_id` cannot be counted, so with a store it escalates.
 *    With a store that leases claims, an accepted handoff is held under a fresh token until the
 *    service commits it (`commit()`, `lease.ts`); a redelivery meanwhile is refused with route
 *    `retry` (`lease-held`), and one after the lease ran out uncommitted takes the claim over.
 * `finish()` records an agent's terminal action, after which the task takes no handoff.
 * Nothing is coerced: `"1"` is not `1`.
 */
import type { EdgeInfo } from "./graph-data.js";
import { createEnvelopeCheck, type ContentVerdict, type EnvelopeCheckSpec } from "./envelope-check.js";
import { capReasons, type Reason } from "./reason.js";
import { custodyReasons } from "./custody-reasons.js";
import { artefactReason } from "./checks/artefact-unreadable.js";
import { duplicateReason } from "./checks/duplicate.js";
import { leaseHeldReason } from "./checks/lease-held.js";
import { ownerConflictReason } from "./checks/owner-conflict.js";
import { endedReason } from "./checks/task-finished.js";
import { UNTRACKED_REASON } from "./checks/untracked-task.js";
import { createFinish, type Finish, type FinishAsync } from "./finish.js";
import { createJoinState } from "./join-state.js";
import type { AsyncSeenStore, ClaimEdge, ClaimRequest, ClaimResult, JoinState, SeenStore } from "./seen-store.js";
import { joinReason, joinRefusal, type JoinRefusal } from "./join-refusal.js";
import { branchReason } from "./branch-reasons.js";
import { checkClock, readClock } from "./clock.js";
import { quoteUntrusted } from "../core/untrusted-text.js";
import type { RejectionRoute, Route } from "./routes.js";

export type { EnvelopeCheckSpec, ValidateFunction } from "./envelope-check.js";
export type { JoinRefusal } from "./join-refusal.js";

/** What {@link createAcceptors} needs: the graph as data and its compiled validators. */
export interface AcceptSpec extends EnvelopeCheckSpec {
  /**
   * Let `me` name an agent the graph lacks (for tools that check envelopes on behalf of whoever
   * they are addressed to, as `seam validate --as '*'`). Default: such a `me` is a `TypeError`.
   */
  readonly anyReceiver?: boolean;
}

/**
 * Whether the receiving agent can dereference an artefact. Called with the artefact's `ref` and
 * `read_scope` (`undefined` when absent) for each artefact whose role is `required`. Only `true`
 * means readable. A throw is not an answer: `accept()` throws it, so the service can retry.
 */
export type CanRead = (ref: string, scope: string | undefined) => boolean;

/** {@link CanRead} for `acceptAsync()`: may answer with a promise. */
export type CanReadAsync = (ref: string, scope: string | undefined) => boolean | PromiseLike<boolean>;

/** Options of one `accept()` call. Unknown keys are a `TypeError` (a misspelt `seen` would silently turn duplicate detection off). */
export interface AcceptOptions {
  /** The receiving agent's id: an agent of the graph. */
  readonly me: string;
  /** Absent: artefacts are not checked. Must be synchronous (use `acceptAsync` otherwise). */
  readonly canRead?: CanRead;
  /**
   * Duplicate and ownership memory, and the task ledger; absent: none is checked, and a refusal
   * always goes back for repair (bounded repair needs a store to count refusals).
   */
  readonly seen?: SeenStore;
  /** The clock for `accepted_at` and the claim, in ms since the Unix epoch (default `Date.now`). */
  readonly now?: () => number;
  /**
   * The producer the transport authenticated (an mTLS subject, a signed token's subject, a
   * queue's producer id), as an agent id of the graph. Given, an envelope whose `from_agent.id`
   * differs is refused (`sender-mismatch`, route `escalate`) before the store is asked: it counts
   * against no one and takes no handoff id. Absent, `from_agent` is the envelope's claim only.
   */
  readonly sender?: string;
  /**
   * The token of this claim attempt, for a store that leases claims: unique to this delivery
   * attempt (the transport's receipt handle or delivery id; 1 to 1,024 characters). Default: a
   * random UUID. Only this token commits or releases the claim (`record.lease.token`).
   */
  readonly claimToken?: string;
}

/** Options of one `acceptAsync()` call: as {@link AcceptOptions}, with asynchronous `canRead` and store allowed. */
export interface AcceptAsyncOptions {
  readonly me: string;
  readonly canRead?: CanReadAsync;
  readonly seen?: AsyncSeenStore;
  readonly now?: () => number;
  readonly sender?: string;
  readonly claimToken?: string;
}

export type { RejectionRoute, Route } from "./routes.js";

/** The acceptance record: a chain of custody for what the receiver took on. */
export interface AcceptanceRecord {
  readonly handoff_id: string;
  readonly task_id: string;
  readonly hop_index: number;
  /** `from_agent.id`. */
  readonly producer: string;
  /** The receiving agent (`me`). */
  readonly receiver: string;
  /** ISO 8601 time of acceptance (UTC). */
  readonly accepted_at: string;
  /** `ref` of every artefact handed over that is not `superseded`, in envelope order. */
  readonly artefacts_consumed: readonly string[];
  /** From `status`: ready/partial/absent -> proceed, blocked -> human_input, waiting_review -> approval, failed -> failed. */
  readonly route: Route;
  /** The envelope's `constraints`, carried forward. */
  readonly constraints: readonly string[];
  /** On an `observe` edge, what would have been refused; otherwise empty. */
  readonly warnings: readonly Reason[];
  /**
   * The claim's lease, with a store that leases claims: process the handoff, then `commit()` it
   * (or `release()` it) before `expires_at` (ISO 8601, UTC); the `token` this claim attempt holds
   * it under. `null`: the claim is committed already (no store, or one without leases).
   */
  readonly lease: { readonly token: string; readonly expires_at: string } | null;
  /** The fan-out branch the handoff travels in (`hop.branch`); absent outside one. */
  readonly branch?: string;
  /** An arrival at a join: the join's state after it (absent for any other handoff). */
  readonly join?: JoinState;
}

/** A structured rejection: which handoff, at which hop, from whom, where it goes, and why. */
export interface Rejection {
  /** `null` when the envelope has no string `handoff_id`. */
  readonly handoff_id: string | null;
  /** `null` when the envelope has no whole-number `hop.index`. */
  readonly hop_index: number | null;
  /** `from_agent.id`; `null` when absent. */
  readonly producer: string | null;
  /**
   * Which refusal this is of the producer in the task's round (1 for the first; the round is the
   * hop the task awaits, see `seen-store.ts`), as the store counted it; `null` without a store,
   * for a duplicate, an ended task, or an envelope with no string `task_id`.
   */
  readonly attempt: number | null;
  /** How many refusals per producer and round go back for repair (the edge's `repairs`, default 1). */
  readonly repairs: number;
  readonly route: RejectionRoute;
  /** Every violated rule: schema errors, then the semantic and graph checks, then the store's. */
  readonly reasons: readonly Reason[];
  /**
   * A refusal because the task's join was given up on (`join-expired`, `join-failed`): the join,
   * why, its policy, whether this verdict acted on it (`acts`: route `escalate` for `otherwise
   * escalate`; once the task ended at the policy's terminal, `discard`), the branches it did not
   * get and those that ended, and its deadline (ISO 8601, UTC; `null` without one). Absent otherwise.
   */
  readonly join?: JoinRefusal;
}


/** An accepted envelope. */
export interface Accepted {
  readonly ok: true;
  readonly duplicate: false;
  readonly record: AcceptanceRecord;
}

/** A refused envelope; `duplicate` is true for a redelivery or a replay (route `discard`). */
export interface Refused {
  readonly ok: false;
  readonly duplicate: boolean;
  readonly rejection: Rejection;
}

/** The verdict of `accept()`. */
export type AcceptResult = Accepted | Refused;

/** The synchronous ingest check of one graph. Never throws on bad input; see {@link createAcceptors}. */
export type Accept = (envelope: unknown, options: AcceptOptions) => AcceptResult;

/** The asynchronous ingest check of one graph; see {@link createAcceptors}. */
export type AcceptAsync = (envelope: unknown, options: AcceptAsyncOptions) => Promise<AcceptResult>;

/** The entry points over one graph, sharing its lookups. */
export interface Acceptors {
  readonly accept: Accept;
  readonly acceptAsync: AcceptAsync;
  /** Records a terminal action (see `finish.ts`). */
  readonly finish: Finish;
  readonly finishAsync: FinishAsync;
  /** A task's join, acting on its policy once when it was given up on (see `join-state.ts`). */
  readonly joinState: JoinStateCall;
  readonly joinStateAsync: JoinStateAsyncCall;
}

/** `joinState(taskId, { seen, now? })`; see `join-state.ts`. */
export type JoinStateCall = ReturnType<typeof createJoinState>["joinState"];
/** `joinStateAsync(taskId, { seen, now? })` over an asynchronous store. */
export type JoinStateAsyncCall = ReturnType<typeof createJoinState>["joinStateAsync"];

/** Refusals per producer and round that go back for repair when the edge says nothing (`repairs 1`). */
export const DEFAULT_REPAIRS = 1;

const HAS_UPPER = /[A-Z]/;

/** Whether `key` names an option of {@link AcceptOptions} (compared, not looked up: this runs on every call). */
function isOptionKey(key: string): boolean {
  return key === "me" || key === "canRead" || key === "seen" || key === "now" || key === "sender" || key === "claimToken";
}

function misuse(call: string, problem: string): TypeError {
  return new TypeError(`${call}(envelope, options): ${problem}`);
}


/** The attempt a refusal was, from the store's answer (a store without a ledger: the first). */
function attemptOf(claimed: ClaimResult | undefined): number | null {
  if (claimed === undefined) return null;
  if (claimed.outcome === "noted" || claimed.outcome === "owner-conflict" || claimed.outcome === "custody") return claimed.attempt ?? 1;
  if (claimed.outcome === "branch" && claimed.state !== "late" && claimed.state !== "arrived" && claimed.state !== "ended") return claimed.attempt ?? 1;
  return null;
}

/** The longest `claimToken`, in UTF-16 code units (an SQS receipt handle is at most 1,024 characters). */
export const MAX_CLAIM_TOKEN = 1024;

/** How many `canRead` calls `acceptAsync` keeps in flight at once. */
export const CAN_READ_CONCURRENCY = 16;

/** Asks `canRead` about every artefact, at most {@link CAN_READ_CONCURRENCY} at a time; the answers in order. */
async function askAll(canRead: CanReadAsync, required: readonly { readonly ref: string; readonly scope: string | undefined }[]): Promise<unknown[]> {
  const answers: unknown[] = new Array(required.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < required.length) {
      const i = next++;
      const artefact = required[i] as (typeof required)[number];
      answers[i] = await canRead(artefact.ref, artefact.scope);
    }
  }
  const workers: Promise<void>[] = [];
  for (let w = 0; w < Math.min(CAN_READ_CONCURRENCY, required.length); w++) workers.push(worker());
  await Promise.all(workers);
  return answers;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

const AsyncFunction = (async () => {}).constructor;

/** A store's answer, which must be a claim result: `undefined` would read as "no store asked" and accept everything. */
function claimResult(answer: unknown): ClaimResult {
  if (typeof answer !== "object" || answer === null) {
    throw new TypeError(`options.seen.claim returned ${answer === null ? "null" : typeof answer}, not a claim result such as { outcome: "claimed" }`);
  }
  return answer as ClaimResult;
}

/**
 * Builds `accept()` and `acceptAsync()` for one graph. Lookups (agents, edges, bounded pairs) are
 * computed once here, so a call allocates little beyond its result.
 *
 * Both never throw on bad input (null, arrays, cyclic objects, getters that throw, inherited
 * properties): a bad envelope is a rejection. They throw a `TypeError` for a misuse by the
 * calling service (no options, a `me` the graph lacks, an unknown option, an asynchronous
 * `canRead` or store given to the synchronous `accept`), a `RangeError` when `now()` gives a time
 * `Date` cannot hold, and whatever `canRead` or `seen.claim` throw (an unavailable store is not
 * bad input, and the caller may retry).
 *
 * On an `observe` edge the content reasons are returned as `record.warnings` with `ok: true`;
 * never a fault in the header (`envelope_version`, `handoff_id`, `task_id`, `hop`, `from_agent`,
 * `to_agent`), the limits (hop limit, max_rounds, budget), a wrong addressee, data that is not
 * JSON, a duplicate or an owner conflict.
 *
 * @param spec - the graph data and its compiled validators
 * @throws Error when `spec` is inconsistent (an edge naming a missing contract: a bug)
 */
export function createAcceptors(spec: AcceptSpec): Acceptors {
  const check = createEnvelopeCheck(spec);
  const agentIds = new Set(spec.agents.map((agent) => agent.id));
  const anyReceiver = spec.anyReceiver === true;
  const { onHopLimit } = spec.graph;
  // Made once: a claim names its edge without allocating.
  const claimEdges = new Map<EdgeInfo, ClaimEdge>(spec.edges.map((edge) => [edge, { kind: edge.kind, from: edge.from, to: edge.to }]));
  // accepted_at: formatting a Date costs more than the rest of a call, and at high rates many
  // calls fall in the same millisecond.
  let lastMs = Number.NaN;
  let lastIso = "";
  function isoTime(ms: number): string {
    if (ms !== lastMs) {
      lastIso = new Date(ms).toISOString();
      lastMs = ms;
    }
    return lastIso;
  }

  function checkOptions(call: string, options: unknown): string {
    if (typeof options !== "object" || options === null) {
      throw misuse(call, `options must be an object naming the receiving agent, such as { me: "${spec.agents[0]?.id ?? "agent"}" }`);
    }
    for (const key in options) {
      if (!isOptionKey(key)) throw misuse(call, `unknown option ${quoteUntrusted(key)}; the options are me, sender, canRead, seen, now and claimToken`);
    }
    const { me, canRead, seen, now, sender, claimToken } = options as Record<string, unknown>;
    if (typeof me !== "string" || me === "") throw misuse(call, "options.me must be the receiving agent's id, a non-empty string");
    if (!anyReceiver && !agentIds.has(me)) {
      const known = [...agentIds].slice(0, 20).join(", ");
      throw misuse(call, `options.me ${quoteUntrusted(me)} is no agent of graph ${spec.graph.name}; use one of ${known}`);
    }
    if (canRead !== undefined && typeof canRead !== "function") throw misuse(call, "options.canRead must be a function (ref, scope) => boolean");
    // `seen: undefined` would silently turn duplicate detection off (a store variable not yet set).
    if ("seen" in options && seen === undefined) throw misuse(call, "options.seen is undefined: pass a store, or leave the key out for no duplicate detection");
    if (sender !== undefined && (typeof sender !== "string" || sender === "")) {
      throw misuse(call, "options.sender must be the producer's agent id as the transport authenticated it, a non-empty string");
    }
    if (seen !== undefined && (typeof seen !== "object" || seen === null || typeof (seen as { claim?: unknown }).claim !== "function")) {
      throw misuse(call, "options.seen must be a store with a claim(request) method, such as createMemorySeenStore()");
    }
    checkClock(now, `${call}(envelope, options)`, "options.now");
    if (claimToken !== undefined && (typeof claimToken !== "string" || claimToken === "" || claimToken.length > MAX_CLAIM_TOKEN)) {
      throw misuse(call, `options.claimToken must be a string of 1 to ${MAX_CLAIM_TOKEN} characters, unique to this delivery attempt`);
    }
    return me;
  }

  function clock(call: string, now: (() => number) | undefined): number {
    return readClock(now, `${call}(envelope, options)`, "options.now");
  }

  /**
   * The claim of one delivery; `leases`: whether the store may lease it (a store that never
   * leases reads no token, so none is made: a random UUID costs more than the rest of the request).
   */
  function claimRequest(content: ContentVerdict, me: string, at: number, reasons: readonly Reason[], token: string | undefined, envelope: unknown, leases: boolean): ClaimRequest | undefined {
    const { handoffId, taskId, hopIndex, producer, edge, path, budget, branch, approval } = content;
    // A delivery that can neither start nor continue a task writes nothing in its ledger.
    if (taskId === undefined || content.stranger) return undefined;
    return {
      // A UUID's hex digits are case-insensitive (RFC 9562 section 4): one handoff, one key.
      handoffId: handoffId === undefined ? null : HAS_UPPER.test(handoffId) ? handoffId.toLowerCase() : handoffId,
      taskId,
      hopIndex: hopIndex ?? null,
      producer: producer ?? null,
      receiver: me,
      edge: (edge && claimEdges.get(edge)) ?? null,
      verdict: reasons.length === 0 || content.lenient ? "accepted" : "rejected",
      at,
      path: path ?? null,
      budget,
      branch,
      approval,
      // A fresh token per claim attempt: replicas share the agent id, never the token.
      token: token ?? (leases ? globalThis.crypto.randomUUID() : undefined),
      envelope,
    };
  }

  function refuse(content: ContentVerdict, reasons: readonly Reason[], duplicate: boolean, claimed?: ClaimResult, untracked = false): Refused {
    const attempt = attemptOf(claimed);
    const repairs = content.edge?.repairs ?? DEFAULT_REPAIRS;
    let route: RejectionRoute = "repair";
    if (claimed?.outcome === "join") route = claimed.acts && claimed.policy === "escalate" ? "escalate" : "discard";
    else if (duplicate || (claimed?.outcome === "branch" && (claimed.state === "late" || claimed.state === "arrived" || claimed.state === "ended"))) route = "discard";
    else if (claimed?.outcome === "leased") route = "retry";
    else if (content.forged) route = "escalate";
    else if (content.hopLimitReached) route = onHopLimit;
    else if (untracked || content.floorEscalates || claimed?.outcome === "finished" || (attempt !== null && attempt > repairs)) route = "escalate";
    const rejection: { -readonly [K in keyof Rejection]: Rejection[K] } = {
      handoff_id: content.handoffId ?? null,
      hop_index: content.hopIndex ?? null,
      producer: content.producer ?? null,
      attempt,
      repairs,
      route,
      reasons: capReasons(reasons as Reason[]),
    };
    // Added after, not spread in: the same keys in the same order, without an object per call.
    if (claimed?.outcome === "join") rejection.join = joinRefusal(claimed, isoTime);
    return { ok: false, duplicate, rejection };
  }

  /**
   * The verdict from the content, the artefact reasons and the store's answer (if asked).
   * `untracked`: a store was given but could not be asked (no string `task_id`, or a delivery
   * that could neither start nor continue a task).
   */
  function settle(content: ContentVerdict, me: string, at: number, reasons: Reason[], request: ClaimRequest | undefined, claimed: ClaimResult | undefined, untracked: boolean): AcceptResult {
    let lease: AcceptanceRecord["lease"] = null;
    if (claimed !== undefined) {
      switch (claimed.outcome) {
        case "duplicate": {
          const found = duplicateReason(content.handoffId, content.taskId, content.hopIndex, claimed);
          reasons.unshift(found);
          return refuse(content, reasons, true);
        }
        case "owner-conflict":
          reasons.push(ownerConflictReason(claimed.owner, content.hopIndex, content.taskId));
          return refuse(content, reasons, false, claimed);
        case "custody":
          reasons.push(...custodyReasons(content, claimed));
          return refuse(content, reasons, false, claimed);
        case "finished":
          reasons.unshift(endedReason(content.taskId, claimed.ended, isoTime));
          return refuse(content, reasons, false, claimed);
        case "leased":
          reasons.unshift(leaseHeldReason(content.handoffId, claimed, isoTime));
          return refuse(content, reasons, false, claimed);
        case "noted":
          return refuse(content, reasons, false, claimed);
        case "branch":
          reasons.push(branchReason(content, claimed));
          return refuse(content, reasons, false, claimed);
        case "join":
          reasons.push(joinReason(content.branch === null ? "/hop" : "/hop/branch", content.taskId as string, claimed, isoTime));
          return refuse(content, reasons, false, claimed);
        case "claimed":
          if (claimed.leaseUntil !== undefined) {
            const token = (request as ClaimRequest).token;
            if (token === undefined) throw new TypeError("options.seen.claim leased a claim, but the store says it leases none (leases: false), so the claim has no token");
            lease = { token, expires_at: new Date(claimed.leaseUntil).toISOString() };
          }
          break;
        default:
          throw new TypeError(`options.seen.claim returned an unknown outcome ${quoteUntrusted((claimed as { outcome?: unknown }).outcome)}`);
      }
    }
    if (untracked) {
      // A refusal the store cannot count could go back for repair forever: a person decides.
      if (content.taskId === undefined) reasons.push(UNTRACKED_REASON);
      return refuse(content, reasons, false, undefined, true);
    }
    if (reasons.length > 0 && !content.lenient) return refuse(content, reasons, false);
    const join = claimed?.outcome === "claimed" ? claimed.join : undefined;
    const record: { -readonly [K in keyof AcceptanceRecord]: AcceptanceRecord[K] } = {
      // `lenient` or no reason at all: the header is usable (the schema or `lenient` saw to that).
      handoff_id: content.handoffId as string,
      task_id: content.taskId as string,
      hop_index: content.hopIndex as number,
      producer: content.producer as string,
      receiver: me,
      accepted_at: isoTime(at),
      artefacts_consumed: content.consumed,
      route: join !== undefined && !join.fired ? "held" : content.route,
      constraints: content.constraints,
      warnings: capReasons(reasons),
      lease,
    };
    // Added after, not spread in: the same keys in the same order, without an object per call.
    if (content.branch !== null) record.branch = content.branch.id;
    if (join !== undefined) record.join = join;
    return { ok: true, duplicate: false, record };
  }

  function accept(input: unknown, options: AcceptOptions): AcceptResult {
    const me = checkOptions("accept", options);
    const { canRead, seen } = options;
    if (canRead !== undefined && canRead instanceof AsyncFunction) {
      throw misuse("accept", "options.canRead is an async function: use acceptAsync, which awaits it");
    }
    const content = check(input, me, options.sender);
    const reasons = content.reasons;
    if (canRead !== undefined) {
      for (const artefact of content.required) {
        const answer: unknown = canRead(artefact.ref, artefact.scope);
        if (isThenable(answer)) throw misuse("accept", "options.canRead returned a promise: use acceptAsync, which awaits it");
        if (answer !== true) reasons.push(artefactReason(me, artefact.index, artefact.ref));
      }
    }
    const at = clock("accept", options.now);
    const request = seen === undefined ? undefined : claimRequest(content, me, at, reasons, options.claimToken, input, seen.leases !== false);
    let claimed: ClaimResult | undefined;
    if (request !== undefined) {
      const answer: unknown = (seen as SeenStore).claim(request);
      if (isThenable(answer)) throw misuse("accept", "options.seen.claim returned a promise: use acceptAsync with an asynchronous store");
      claimed = claimResult(answer);
    }
    return settle(content, me, at, reasons, request, claimed, seen !== undefined && request === undefined);
  }

  async function acceptAsync(input: unknown, options: AcceptAsyncOptions): Promise<AcceptResult> {
    const me = checkOptions("acceptAsync", options);
    const { canRead, seen } = options;
    const content = check(input, me, options.sender);
    const reasons = content.reasons;
    if (canRead !== undefined && content.required.length > 0) {
      // Asked a few at a time: an artefact store answers them concurrently, and an envelope
      // listing 10^5 artefacts does not start 10^5 requests at once.
      const answers = await askAll(canRead, content.required);
      answers.forEach((answer, i) => {
        const artefact = content.required[i] as (typeof content.required)[number];
        if (answer !== true) reasons.push(artefactReason(me, artefact.index, artefact.ref));
      });
    }
    const at = clock("acceptAsync", options.now);
    const request = seen === undefined ? undefined : claimRequest(content, me, at, reasons, options.claimToken, input, seen.leases !== false);
    const claimed = request === undefined ? undefined : claimResult(await (seen as AsyncSeenStore).claim(request));
    return settle(content, me, at, reasons, request, claimed, seen !== undefined && request === undefined);
  }

  const { finish, finishAsync } = createFinish(spec, isoTime);
  const { joinState, joinStateAsync } = createJoinState(isoTime);
  return { accept, acceptAsync, finish, finishAsync, joinState, joinStateAsync };
}
