// The round trip of one claim, one caller, on a loopback redis-server: the version 2 script (the
// task ledger) beside the version 1 script it replaced (duplicates and one owner per hop only,
// kept as bench/fixtures/claim-v1.lua) and beside the memory store. Two workloads: the first hop
// of a new task (the smallest ledger), and every hop of 8-hop walks (the ledger a long task
// carries, which version 2 reads and rewrites on each claim). Rounds interleave the measures;
// the median per measure is reported, in µs per claim.
import { readFileSync } from "node:fs";
import { scaled } from "./section.mjs";
import { median, nowMs } from "./stats.mjs";

const V1 = readFileSync(new URL("./fixtures/claim-v1.lua", import.meta.url), "utf8");
const OPS = scaled(400, 40);
const ROUNDS = scaled(7, 1);
const WALK = 8;

/** Hop `i % WALK + 1` of walk `floor(i / WALK)` of run `run`: agents a and b hand the task back and forth. */
function walkHop(run, i) {
  const hopIndex = (i % WALK) + 1;
  const path = Array.from({ length: hopIndex + 1 }, (_, k) => (k % 2 === 0 ? "a" : "b"));
  return {
    handoffId: `w${run}-${i}`,
    taskId: `walk-${run}-${Math.floor(i / WALK)}`,
    hopIndex,
    producer: path[hopIndex - 1],
    receiver: path[hopIndex],
    edge: null,
    verdict: "accepted",
    at: 0,
    path,
  };
}

/** The first hop of a new task. */
function firstHop(run, i) {
  return { handoffId: `f${run}-${i}`, taskId: `first-${run}-${i}`, hopIndex: 1, producer: "a", receiver: "b", edge: null, verdict: "accepted", at: 0, path: ["a", "b"] };
}

/** µs per claim of `ops` sequential claims. */
async function timed(claim) {
  const start = nowMs();
  for (let i = 0; i < OPS; i++) {
    const answer = await claim(i);
    if (answer?.outcome !== undefined && answer.outcome !== "claimed") throw new Error(`bench claim answered ${JSON.stringify(answer)}`);
  }
  return ((nowMs() - start) * 1000) / OPS;
}

/**
 * Measures the claim round trip on `client` (connected, made with seamRedisScripts).
 * @returns {Promise<Record<string, number>>} µs per claim: memory, v1, v2 (first hops) and memoryWalk, v1Walk, v2Walk
 */
export async function measureClaimRoundTrip(client, { createMemorySeenStore, createRedisSeenStore }) {
  const v1Sha = await client.scriptLoad(V1);
  // Without node-redis's per-command timeout, as the store calls it (redis-store.ts, untimed).
  const untimed = client.withCommandOptions({ timeout: 0 });
  const v1 = (prefix, request) =>
    untimed.evalSha(v1Sha, {
      keys: [`${prefix}:h:${request.handoffId}`, `${prefix}:o:${request.hopIndex}:${request.taskId}`],
      arguments: [request.handoffId, request.receiver, request.verdict, String(request.at), "3600"],
    }).then(([outcome]) => ({ outcome }));
  const v2 = createRedisSeenStore(client, { prefix: "bench-v2", ttlSeconds: 3600 });
  const results = { memory: [], v1: [], v2: [], memoryWalk: [], v1Walk: [], v2Walk: [] };
  for (let round = 0; round <= ROUNDS; round++) {
    const memory = createMemorySeenStore();
    const times = {
      memory: await timed((i) => memory.claim(firstHop(round, i))),
      v1: await timed((i) => v1("bench-v1", firstHop(round, i))),
      v2: await timed((i) => v2.claim(firstHop(round, i))),
      memoryWalk: await timed((i) => memory.claim(walkHop(round, i))),
      v1Walk: await timed((i) => v1("bench-v1", walkHop(round, i))),
      v2Walk: await timed((i) => v2.claim(walkHop(round, i))),
    };
    // Round 0 warms up the JIT and loads the scripts.
    if (round > 0) for (const [name, us] of Object.entries(times)) results[name].push(us);
  }
  return Object.fromEntries(Object.entries(results).map(([name, list]) => [name, median(list)]));
}
