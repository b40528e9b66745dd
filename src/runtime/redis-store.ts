/**
 * An {@link AsyncSeenStore} on Redis, for services that run as several replicas: every claim is
 * ONE Lua script (run atomically by Redis) that decides redelivery, replay, owner conflict, the
 * task ledger's chain of custody and ended tasks, counts refusals, and writes, in one round trip;
 * `finish` is one more call of it. It keeps the same ledger as `createMemorySeenStore()` and gives
 * the same answers (`seen-store.ts`); the script and its keys are in `ledger.lua`, the
 * strict reading of their replies in `redis-replies.ts`.
 *
 * The scripts are given to node-redis (the `redis` package, 6.x, an optional peer
 * dependency) in its `defineScript` shape: loaded once, then called by SHA-1.
 *
 * Keys (the prefix keeps deployments that share a Redis apart; choose prefixes of which none is
 * another's followed by `:`):
 * - `<prefix>:t:<task_id>`: the task's ledger, a hash (accepted hops, the recorded path, the
 *   refusal counts of the current round per producer, the end);
 * - `<prefix>:a:<n>:<producer>:<handoff_id>` (`n` the producer id's length; `-:<handoff_id>` for
 *   none): one per accepted handoff, naming its task's key (a redelivery is recognised under any
 *   `task_id`, and no other producer's use of the id makes it a duplicate).
 * An id longer than {@link MAX_RAW_ID} UTF-16 code units, or with an unpaired surrogate (which
 * UTF-8 cannot carry), is named by the SHA-256 of its UTF-16 code units instead:
 * `<prefix>:t#<64 hex digits>`, `<prefix>:a#<64 hex digits>`. Ids go after the last fixed part of
 * the key, and the two forms differ right after the type letter, so no id (whatever `:` or `#` it
 * holds) names another id's key, and keys stay bounded whatever the envelope carries.
 *
 * Expiry: a task is remembered `ttlSeconds` after its last write (an accepted or refused
 * delivery, a terminal action). Each write sets that expiry on the task key and on the handoff
 * key of every hop it recorded, in the same script, so a task's keys go together; and a request
 * whose time (`at`) is `ttlSeconds` or more after the task's last write finds it forgotten, as
 * the memory store does. Forgotten whole: its handoff ids, owners, path, refusal counts and end.
 *
 * Leases (`leaseMs`): a claim is held under its token until `settle` commits or releases it, as
 * the memory store does (`seen-store.ts`, claim leases); a claim whose answer was lost to a
 * timeout is then taken over by a later delivery once its lease ran out, never lost.
 *
 * Durability: a claim answered `claimed` must survive a Redis restart, or a redelivery after the
 * restart is accepted again. Run Redis with the append-only file (`appendonly yes`,
 * `appendfsync always`; `everysec` can lose the last second of claims).
 */
import { createHash } from "node:crypto";
import { escapeUntrusted } from "../core/untrusted-text.js";
import { StoreUnavailableError, toClaimResult, toFinishResult, toJoinStateResult, toSettleResult } from "./redis-replies.js";
import { seamRedisScripts } from "./redis-scripts.js";
import { BUDGET_COUNTERS } from "./checks/budget-exhausted.js";
import { envelopeDigest } from "./envelope-digest.js";
import type { AsyncSeenStore, ClaimRequest, ClaimResult, FinishRequest, FinishResult, JoinStateRequest, JoinStateResult, SettleRequest, SettleResult } from "./seen-store.js";

export { StoreUnavailableError } from "./redis-replies.js";
export { LEDGER_SCRIPT, seamRedisScripts, type ScriptParser } from "./redis-scripts.js";

/** A node-redis client created with {@link seamRedisScripts}; only the scripts are used. */
export interface SeamRedisClient {
  seamClaim(keys: readonly string[], args: readonly string[]): Promise<unknown>;
  seamFinish(keys: readonly string[], args: readonly string[]): Promise<unknown>;
  /** Needed with `leaseMs` only. */
  seamSettle?(keys: readonly string[], args: readonly string[]): Promise<unknown>;
  /** Needed for `joinState` only. */
  seamJoinState?(keys: readonly string[], args: readonly string[]): Promise<unknown>;
  /** node-redis's view of the client with other command options; the store's calls use one without a per-command timeout. */
  withCommandOptions?(options: { readonly timeout: number }): SeamRedisClient;
}

/** Options of {@link createRedisSeenStore}. */
export interface RedisSeenStoreOptions {
  /** Key prefix of this deployment (`refund-desk-prod`): required, so deployments sharing a Redis never see each other's tasks. 1 to 100 characters, no whitespace. */
  readonly prefix: string;
  /** How long an idle task is remembered after its last write, in seconds (default 7 days): longer than any task may pause. A whole number, at least 1. */
  readonly ttlSeconds?: number;
  /** How long a call may take before it fails, in ms (default 2,000). */
  readonly timeoutMs?: number;
  /** Who shares the store, as for `createMemorySeenStore` (default `"graph"`: every service of the graph). */
  readonly scope?: "graph" | "receiver";
  /**
   * How long a claim is leased before it must be committed, in ms (a whole number; default 0: no
   * lease, a claim is committed when it is made), as for `createMemorySeenStore`. Longer than a
   * handoff takes to process, and than `timeoutMs`.
   */
  readonly leaseMs?: number;
}

/** The Redis store: an {@link AsyncSeenStore} whose claim, finish and settle are always promises. */
export interface RedisSeenStore extends AsyncSeenStore {
  claim(request: ClaimRequest): Promise<ClaimResult>;
  finish(request: FinishRequest): Promise<FinishResult>;
  settle(request: SettleRequest): Promise<SettleResult>;
  joinState(request: JoinStateRequest): Promise<JoinStateResult>;
  /** Whether it leases claims (created with `leaseMs` above 0). */
  readonly leases: boolean;
}

/** Seven days, in seconds. */
export const DEFAULT_TTL_SECONDS = 7 * 24 * 3600;

/** Two seconds. */
export const DEFAULT_TIMEOUT_MS = 2000;

/** The longest id, in UTF-16 code units, that is written into a key as it is (a longer one is hashed). */
export const MAX_RAW_ID = 200;

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The key of id `id` of type `letter` under `prefix` (see the module comment). */
export function redisKey(prefix: string, letter: "t" | "a", id: string): string {
  if (id.length <= MAX_RAW_ID && !UNPAIRED_SURROGATE.test(id)) return `${prefix}:${letter}:${id}`;
  return `${prefix}:${letter}#${createHash("sha256").update(Buffer.from(id, "utf16le")).digest("hex")}`;
}

/** The name of a handoff's key: its producer and id, so another producer's use of the id is another key. */
function handoffName(producer: string | null, handoffId: string): string {
  return producer === null ? `-:${handoffId}` : `${producer.length}:${producer}:${handoffId}`;
}

function counterArg(value: number | undefined): string {
  if (value === undefined) return "";
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError("RedisSeenStore.claim: request.budget counters must be whole numbers, 0 or more");
  return String(value);
}

interface StoreSettings {
  readonly prefix: string;
  readonly ttl: number;
  readonly timeout: number;
  readonly scope: "graph" | "receiver";
  readonly leaseMs: number;
}

function checkOptions(options: RedisSeenStoreOptions): StoreSettings {
  const { prefix } = options ?? {};
  if (typeof prefix !== "string" || !/^\S{1,100}$/.test(prefix)) {
    throw new TypeError("createRedisSeenStore: options.prefix must be 1 to 100 characters without whitespace, one per deployment (e.g. 'refund-desk-prod')");
  }
  const ttl = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  if (!Number.isSafeInteger(ttl) || ttl < 1) throw new TypeError("createRedisSeenStore: options.ttlSeconds must be a whole number of seconds, at least 1");
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeout) || timeout <= 0) throw new TypeError("createRedisSeenStore: options.timeoutMs must be a positive number of ms");
  const scope = options.scope ?? "graph";
  if (scope !== "graph" && scope !== "receiver") throw new TypeError(`createRedisSeenStore: options.scope must be "graph" or "receiver", not ${escapeUntrusted(String(scope), 40)}`);
  const leaseMs = options.leaseMs ?? 0;
  if (!Number.isSafeInteger(leaseMs) || leaseMs < 0) throw new TypeError("createRedisSeenStore: options.leaseMs must be a whole number of ms, 0 (no lease) or more");
  return { prefix, ttl, timeout, scope, leaseMs };
}

/** The time of a request, as the scripts read it: a finite number of ms (a misuse otherwise). */
function timeArg(call: string, at: unknown): string {
  if (typeof at !== "number" || !Number.isFinite(at)) throw new TypeError(`${call}: request.at must be a finite number of ms since the Unix epoch`);
  return String(at);
}

/** What a failed call tells its caller: the call named, and what to do. */
interface CallWords {
  /** Redis did not answer in time. */
  readonly late: (ms: number) => string;
  /** Redis answered with an error, or could not be reached (`why`, escaped). */
  readonly failed: (why: string) => string;
}

/**
 * What to add to a failed call's message when Redis refused the store's user (`NOPERM`,
 * `WRONGPASS`, `NOAUTH`: its ACL or password): every call fails alike until that is fixed, so a
 * redelivery alone does not help, unlike a Redis that is down or busy. The Python store says the same.
 */
function accessHint(why: string): string {
  return /^(?:NOPERM|WRONGPASS|NOAUTH)\b/.test(why) ? " (Redis refused the store's user: fix its password or ACL first)" : "";
}

/**
 * Runs one script call within the timeout; turns every failure into a {@link StoreUnavailableError}.
 * One promise and one timer per call, and the words are only written for a failure: this runs
 * on every claim.
 */
function callScript(timeout: number, words: CallWords, call: () => Promise<unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new StoreUnavailableError(words.late(timeout))), timeout);
    const failed = (error: unknown): void => {
      clearTimeout(timer);
      const why = error instanceof Error ? error.message : String(error);
      reject(new StoreUnavailableError(`${words.failed(escapeUntrusted(why, 200))}${accessHint(why)}`, { cause: error }));
    };
    let answer: Promise<unknown>;
    try {
      answer = call();
    } catch (error) {
      failed(error);
      return;
    }
    answer.then((reply) => {
      clearTimeout(timer);
      resolve(reply);
    }, failed);
  });
}

/**
 * The client the store's calls go through: node-redis gives every command a timeout of its own
 * (`commandOptions.timeout`, 5 s by default), an `AbortSignal.timeout` per command that costs the
 * client more CPU than a claim's own work; a store call has one deadline already, `timeoutMs`
 * ({@link callScript}), so its calls run on a view of the client without the second one.
 */
function untimed(client: SeamRedisClient): SeamRedisClient {
  return typeof client.withCommandOptions === "function" ? client.withCommandOptions({ timeout: 0 }) : client;
}

/**
 * Creates the Redis store on a connected node-redis client made with {@link seamRedisScripts}.
 * Create the client with `disableOfflineQueue: true`: a call must fail at once while Redis is
 * unreachable, never wait in a queue and run later, after its caller was told it failed.
 *
 * @param client - `createClient({ url, scripts: seamRedisScripts, disableOfflineQueue: true })`, connected
 * @param options - the deployment's key prefix, the expiry, the timeout and the scope
 * @throws TypeError on bad options (a misuse, at once); `claim` and `finish` throw a TypeError
 *   for a request whose `hopIndex` is not a whole number or whose `at` is not finite
 * @returns a store whose `claim` and `finish` reject with {@link StoreUnavailableError} when Redis
 *   does not answer in time, cannot be reached, or answers something that is no result
 */
export function createRedisSeenStore(client: SeamRedisClient, options: RedisSeenStoreOptions): RedisSeenStore {
  const { prefix, ttl, timeout, scope, leaseMs } = checkOptions(options);
  if (typeof client?.seamClaim !== "function" || typeof client.seamFinish !== "function" || (leaseMs > 0 && typeof client.seamSettle !== "function")) {
    throw new TypeError(`createRedisSeenStore: the client has no seamClaim${leaseMs > 0 ? ", seamFinish and seamSettle" : " and seamFinish"} scripts: create it with createClient({ scripts: seamRedisScripts, ... })`);
  }
  const ttlArg = String(ttl);
  const calls = untimed(client);
  return {
    leases: leaseMs > 0,
    async claim(request: ClaimRequest): Promise<ClaimResult> {
      const { handoffId, taskId, hopIndex, producer, path, budget, branch } = request;
      if (hopIndex !== null && (!Number.isSafeInteger(hopIndex) || hopIndex < 0)) {
        throw new TypeError("RedisSeenStore.claim: request.hopIndex must be a whole number, 0 or more, or null");
      }
      const taskKey = redisKey(prefix, "t", taskId);
      // Without a handoff id the script touches no handoff key: the task key stands in.
      const keys = [taskKey, handoffId === null ? taskKey : redisKey(prefix, "a", handoffName(producer, handoffId))];
      const { approval } = request;
      // Claim leases: until when, computed here (exact for every safe integer, unlike Lua's numbers).
      const leased = leaseMs > 0 && typeof request.token === "string";
      // What follows the path, one flag per block (ledger.lua's claim arguments): a claim sends no
      // placeholders, since each argument costs Redis about as much as a small command's parse.
      let flags = producer == null ? 0 : 1;
      if (handoffId !== null && hopIndex !== null) flags += 2;
      if (budget != null) flags += 4;
      if (approval != null) flags += 8 + (approval.waits ? 16 : 0) + (approval.cites === null ? 0 : 32);
      if (leased) flags += 64;
      if (branch != null) flags += 128;
      const args = [ttlArg, timeArg("RedisSeenStore.claim", request.at), scope, handoffId ?? "", String(hopIndex ?? ""), request.verdict, request.receiver];
      args.push(producer ?? "", String(flags), request.edge === null ? "n" : `e:${request.edge.from}`, path == null ? "-1" : String(path.length));
      // One by one: an array spread into a call's arguments overflows the stack past ~10^5 items.
      if (path != null) for (const step of path) args.push(step);
      if (budget != null) {
        for (const counter of BUDGET_COUNTERS) args.push(counterArg(budget.limit?.[counter]));
        for (const counter of BUDGET_COUNTERS) args.push(counterArg(budget.consumed?.[counter]));
      }
      // approval-pending: the handoff it cites, when it cites one.
      if (approval != null && approval.cites !== null) args.push(approval.cites);
      if (leased) args.push(String(request.at + leaseMs), request.token as string, envelopeDigest(request.envelope) ?? "");
      if (branch != null) {
        const { join } = branch;
        args.push(branch.id, branch.fanOut, branch.from, branch.agent, branch.opens ? "1" : "0", branch.arrives ? "1" : "0");
        args.push(join === null ? "" : join.agent, join === null ? "" : String(join.need), String(branch.siblings.length));
        for (const id of branch.siblings) args.push(id);
        // Join deadlines: within (ms), otherwise, the policy terminal's outcome.
        args.push(join === null || join.withinMs === null ? "" : String(join.withinMs), join === null ? "escalate" : join.otherwise, join?.outcome ?? "");
      }
      const named = () => (handoffId === null ? `without a handoff_id, of task ${escapeUntrusted(taskId, 80)}` : escapeUntrusted(handoffId, 80));
      const words: CallWords = {
        late: (ms) => `Redis did not answer the claim of handoff ${named()} within ${ms} ms: it may or may not be recorded; deliver it again later`,
        failed: (why) => `Redis could not claim handoff ${named()} (${why}): it is neither accepted nor refused; deliver it again later`,
      };
      return toClaimResult(await callScript(timeout, words, () => calls.seamClaim(keys, args)));
    },

    async finish(request: FinishRequest): Promise<FinishResult> {
      const keys = [redisKey(prefix, "t", request.taskId)];
      const args = [ttlArg, timeArg("RedisSeenStore.finish", request.at), scope, request.agent, request.terminal, request.outcome, request.entry ? "1" : "0"];
      const named = escapeUntrusted(request.taskId, 80);
      const words: CallWords = {
        late: (ms) => `Redis did not answer the end of task ${named} within ${ms} ms: it may or may not be recorded; call finish again later`,
        failed: (why) => `Redis could not record the end of task ${named} (${why}): the task has not ended; call finish again later`,
      };
      return toFinishResult(await callScript(timeout, words, () => calls.seamFinish(keys, args)));
    },

    async settle(request: SettleRequest): Promise<SettleResult> {
      const settle = calls.seamSettle;
      if (typeof settle !== "function") throw new TypeError("RedisSeenStore.settle: the client has no seamSettle script: create it with createClient({ scripts: seamRedisScripts, ... })");
      const keys = [redisKey(prefix, "t", request.taskId)];
      const { producer } = request;
      const args = [ttlArg, timeArg("RedisSeenStore.settle", request.at), scope, request.handoffId, producer ?? "", producer === null ? "0" : "1", request.token, request.action];
      const named = escapeUntrusted(request.handoffId, 80);
      const words: CallWords = {
        late: (ms) => `Redis did not answer the ${request.action} of handoff ${named} within ${ms} ms: it may or may not be recorded; ${request.action} it again`,
        failed: (why) => `Redis could not ${request.action} handoff ${named} (${why}): ${request.action} it again`,
      };
      return toSettleResult(await callScript(timeout, words, () => settle.call(calls, keys, args)));
    },

    async joinState(request: JoinStateRequest): Promise<JoinStateResult> {
      if (typeof client.seamJoinState !== "function") throw new TypeError("RedisSeenStore.joinState: the client has no seamJoinState script: create it with createClient({ scripts: seamRedisScripts, ... })");
      const keys = [redisKey(prefix, "t", request.taskId)];
      const args = [ttlArg, timeArg("RedisSeenStore.joinState", request.at), scope];
      const named = escapeUntrusted(request.taskId, 80);
      const words: CallWords = {
        late: (ms) => `Redis did not answer the join state of task ${named} within ${ms} ms: ask again later`,
        failed: (why) => `Redis could not read the join state of task ${named} (${why}): ask again later`,
      };
      const joinState = (calls.seamJoinState ?? client.seamJoinState) as NonNullable<SeamRedisClient["seamJoinState"]>;
      return toJoinStateResult(await callScript(timeout, words, () => joinState.call(calls, keys, args)));
    },
  };
}
