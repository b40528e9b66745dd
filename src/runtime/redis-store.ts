/**
 * An {@link AsyncSeenStore} on Redis, for services that run as several replicas: every claim is
 * ONE Lua script (run atomically by Redis, https://redis.io/docs/latest/develop/programmability/eval-intro/)
 * that decides duplicate, replay and owner conflict and writes the claim in one round trip, so
 * two replicas racing for the same handoff or the same hop cannot both win.
 *
 * The script is given to node-redis (the `redis` package, 5.x or 6.x, an optional peer
 * dependency) in its `defineScript` shape: loaded once, then called by SHA-1. Keys:
 * `<prefix>:h:<handoff_id>` and `<prefix>:o:<hop_index>:<task_id>` (a hash each: the accepted
 * handoff's id, its receiver and when), both expiring after `ttlSeconds`. The prefix keeps
 * deployments that share a Redis apart. All keys of one claim must be on one node: use one Redis
 * (with replicas), not Redis Cluster.
 *
 * Durability: a claim answered `claimed` must survive a Redis restart, or a redelivery after the
 * restart is accepted again. Run Redis with the append-only file (`appendonly yes`,
 * `appendfsync always`; `everysec` can lose the last second of claims).
 */
import { createHash } from "node:crypto";
import { escapeUntrusted } from "../core/untrusted-text.js";
import type { AsyncSeenStore, ClaimRequest, ClaimResult } from "./seen-store.js";

/**
 * The claim script. Sections are numbered in the order they decide; a later check (a per-task
 * ledger) adds its own section before "4. Claim" and its keys after KEYS[2].
 */
export const CLAIM_SCRIPT = `-- Seam claim, version 1: decides one delivery in one atomic step.
-- KEYS[1]  <prefix>:h:<handoff_id>            the accepted handoff
-- KEYS[2]  <prefix>:o:<hop_index>:<task_id>   the owner of the task's hop
-- ARGV[1] handoff_id  ARGV[2] receiver  ARGV[3] verdict ("accepted" or "rejected")
-- ARGV[4] at (ms since the Unix epoch)  ARGV[5] time to live of new keys, in seconds
-- Reply: {"claimed"} | {"noted"} | {"owner-conflict", owner}
--      | {"duplicate", "handoff" or "hop", holder id, holder receiver, holder at}
local handoff_key, owner_key = KEYS[1], KEYS[2]
local handoff_id, receiver, verdict, at, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]

-- 1. This handoff_id was accepted before: a redelivery.
local earlier = redis.call("HMGET", handoff_key, "id", "receiver", "at")
if earlier[1] then
  return {"duplicate", "handoff", earlier[1], earlier[2], earlier[3]}
end

-- 2. This task's hop was accepted before: a replay (same receiver) or another owner.
local owner = redis.call("HMGET", owner_key, "id", "receiver", "at")
if owner[1] then
  if owner[2] == receiver then
    return {"duplicate", "hop", owner[1], owner[2], owner[3]}
  end
  return {"owner-conflict", owner[2]}
end

-- 3. A rejected delivery owns nothing: it is only noted.
if verdict ~= "accepted" then
  return {"noted"}
end

-- 4. Claim: remember the handoff and the hop's owner, both expiring.
redis.call("HSET", handoff_key, "id", handoff_id, "receiver", receiver, "at", at)
redis.call("EXPIRE", handoff_key, ttl)
redis.call("HSET", owner_key, "id", handoff_id, "receiver", receiver, "at", at)
redis.call("EXPIRE", owner_key, ttl)
return {"claimed"}
`;

/** What node-redis's `parseCommand` receives: the command being built. */
export interface ScriptParser {
  pushKey(key: string): void;
  push(...args: string[]): void;
}

/**
 * The claim as a node-redis script definition (what `defineScript` returns: the script, its
 * SHA-1 and how to pass arguments), built without importing `redis`. Give it to `createClient`:
 * `createClient({ url, scripts: seamRedisScripts })`.
 */
export const seamRedisScripts = {
  seamClaim: {
    IS_READ_ONLY: false,
    NUMBER_OF_KEYS: 2,
    SCRIPT: CLAIM_SCRIPT,
    SHA1: createHash("sha1").update(CLAIM_SCRIPT).digest("hex"),
    parseCommand(parser: ScriptParser, handoffKey: string, ownerKey: string, args: readonly string[]): void {
      parser.pushKey(handoffKey);
      parser.pushKey(ownerKey);
      parser.push(...args);
    },
    transformReply(reply: unknown): unknown {
      return reply;
    },
  },
} as const;

/** A node-redis client created with {@link seamRedisScripts}; only the script is used. */
export interface SeamRedisClient {
  seamClaim(handoffKey: string, ownerKey: string, args: readonly string[]): Promise<unknown>;
}

/** Options of {@link createRedisSeenStore}. */
export interface RedisSeenStoreOptions {
  /** Key prefix of this deployment (`refund-desk-prod`): required, so deployments sharing a Redis never see each other's claims. 1 to 100 characters, no whitespace. */
  readonly prefix: string;
  /** How long a claim is remembered, in seconds (default 7 days): longer than any task may run. */
  readonly ttlSeconds?: number;
  /** How long a claim may take before it fails, in ms (default 2,000). */
  readonly timeoutMs?: number;
}

/** The Redis store: an {@link AsyncSeenStore} whose claim is always a promise. */
export interface RedisSeenStore extends AsyncSeenStore {
  claim(request: ClaimRequest): Promise<ClaimResult>;
}

/** Seven days, in seconds. */
export const DEFAULT_TTL_SECONDS = 7 * 24 * 3600;

/** Two seconds. */
export const DEFAULT_TIMEOUT_MS = 2000;

/**
 * A claim that Redis did not answer: unreachable, too slow, or an unexpected reply. The delivery
 * is neither accepted nor refused: do not process it, deliver it again later. When the claim
 * was sent but its answer lost (a timeout), Redis may have recorded it: the next delivery is
 * then answered `duplicate` with this very handoff and receiver as the holder.
 */
export class StoreUnavailableError extends Error {
  override readonly name = "StoreUnavailableError";
}

function malformed(reply: unknown): StoreUnavailableError {
  return new StoreUnavailableError(`Redis answered the claim with ${JSON.stringify(reply)?.slice(0, 200)}, which is not a claim result: is the key prefix shared with something else?`);
}

/** Turns the script's reply into a {@link ClaimResult}. */
function toResult(reply: unknown): ClaimResult {
  if (!Array.isArray(reply) || typeof reply[0] !== "string") throw malformed(reply);
  const [outcome, a, id, receiver, at] = reply as unknown[];
  switch (outcome) {
    case "claimed":
      return { outcome: "claimed" };
    case "noted":
      return { outcome: "noted" };
    case "owner-conflict":
      if (typeof a !== "string") throw malformed(reply);
      return { outcome: "owner-conflict", owner: a };
    case "duplicate":
      if ((a !== "handoff" && a !== "hop") || typeof id !== "string" || typeof receiver !== "string") throw malformed(reply);
      return { outcome: "duplicate", of: a, holder: { handoffId: id, receiver, at: Number(at) } };
    default:
      throw malformed(reply);
  }
}

function checkOptions(options: RedisSeenStoreOptions): { prefix: string; ttl: number; timeout: number } {
  const { prefix } = options ?? {};
  if (typeof prefix !== "string" || !/^\S{1,100}$/.test(prefix)) {
    throw new TypeError("createRedisSeenStore: options.prefix must be 1 to 100 characters without whitespace, one per deployment (e.g. 'refund-desk-prod')");
  }
  const ttl = options.ttlSeconds ?? DEFAULT_TTL_SECONDS;
  if (!Number.isSafeInteger(ttl) || ttl < 1) throw new TypeError("createRedisSeenStore: options.ttlSeconds must be a whole number of seconds, at least 1");
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeout) || timeout <= 0) throw new TypeError("createRedisSeenStore: options.timeoutMs must be a positive number of ms");
  return { prefix, ttl, timeout };
}

/**
 * Creates the Redis store on a connected node-redis client made with {@link seamRedisScripts}.
 * Create the client with `disableOfflineQueue: true`: a claim must fail at once while Redis is
 * unreachable, never wait in a queue and run later, after its caller was told it failed.
 *
 * @param client - `createClient({ url, scripts: seamRedisScripts, disableOfflineQueue: true })`, connected
 * @param options - the deployment's key prefix, the expiry and the timeout
 * @throws TypeError on bad options (a misuse, at once)
 * @returns a store whose `claim` rejects with {@link StoreUnavailableError} when Redis does not answer in time or cannot be reached
 */
export function createRedisSeenStore(client: SeamRedisClient, options: RedisSeenStoreOptions): RedisSeenStore {
  const { prefix, ttl, timeout } = checkOptions(options);
  if (typeof client?.seamClaim !== "function") {
    throw new TypeError("createRedisSeenStore: the client has no seamClaim script: create it with createClient({ scripts: seamRedisScripts, ... })");
  }
  return {
    async claim(request: ClaimRequest): Promise<ClaimResult> {
      // No key to claim under: version 1 keeps no refusal counts, so there is nothing to write.
      if (request.handoffId === null || request.hopIndex === null) return { outcome: "noted" };
      const handoffKey = `${prefix}:h:${request.handoffId}`;
      const ownerKey = `${prefix}:o:${request.hopIndex}:${request.taskId}`;
      const args = [request.handoffId, request.receiver, request.verdict, String(request.at), String(ttl)];
      const named = escapeUntrusted(request.handoffId, 80);
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new StoreUnavailableError(`Redis did not answer the claim of handoff ${named} within ${timeout} ms: it may or may not be recorded; deliver it again later`)),
          timeout,
        );
      });
      let reply: unknown;
      try {
        reply = await Promise.race([client.seamClaim(handoffKey, ownerKey, args), expired]);
      } catch (error) {
        if (error instanceof StoreUnavailableError) throw error;
        const why = error instanceof Error ? error.message : String(error);
        throw new StoreUnavailableError(`Redis could not claim handoff ${named} (${escapeUntrusted(why, 200)}): it is neither accepted nor refused; deliver it again later`, { cause: error });
      } finally {
        clearTimeout(timer);
      }
      return toResult(reply);
    },
  };
}
