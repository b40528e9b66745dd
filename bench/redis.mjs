// Redis store: what a claim on the shared task ledger costs, on Debian's redis-server (loopback,
// appendfsync everysec, bench/redis-server.mjs).
//   - claims per second with 1, 8 and 64 concurrent callers on one node-redis client, beside plain
//     SET NX at the same concurrency (rounds of 300 ms, the two interleaved, median), and at 64
//     callers beside redis-benchmark running EVALSHA of a trivial script (`return 1`) with 64
//     clients: the ceiling of any Lua-script store on this server; and beside the same trivial
//     EVALSHA sent by node-redis from 64 callers on one client, the ceiling of any store on that
//     client (what is left is the claim script's work and the store's own code). The three run in
//     interleaved rounds, so that a change in the machine's load moves both sides of a ratio; and
//     where a claim's time goes: the CPU per claim in redis-server and in the client (the store
//     and node-redis), beside the same for the trivial EVALSHA;
//   - the latency of acceptAsync() with the Redis store beside accept() with the memory store, one
//     caller, p50 and p99, on the hop-1 envelopes of bench/envelopes.mjs;
//   - the round trip of one claim, the shipped script beside the version 1 script and the memory
//     store (bench/redis-claim.mjs).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createClient } from "redis";
import { FIRST_RECEIVER, loadCompiledModule, makeHandoffs } from "./envelopes.mjs";
import { measureClaimRoundTrip } from "./redis-claim.mjs";
import { REDIS_BENCHMARK, startRedis } from "./redis-server.mjs";
import { missing, progress, runIfMain, scaled } from "./section.mjs";
import { median, nowMs, quantile } from "./stats.mjs";
import { fmtMs, row } from "./table.mjs";

const { createMemorySeenStore, createRedisSeenStore, seamRedisScripts } = await import("../dist/runtime/index.js");

const ROUNDS = scaled(7, 1);
const ROUND_MS = scaled(300, 100);
// Rounds beside redis-benchmark last about as long as one of its runs (30,000 requests), so that
// both sides see the same swings of the machine's load.
const BESIDE_MS = scaled(1000, 100);
const LATENCY_ENVELOPES = scaled(500, 50);
const BENCHMARK_REQUESTS = scaled(30_000, 2_000);

/** Runs `callers` loops of `op` for `ms`; returns operations per second. */
async function rate(callers, ms, op) {
  let done = 0;
  const end = nowMs() + ms;
  await Promise.all(
    Array.from({ length: callers }, async (_, c) => {
      for (let i = 0; nowMs() < end; i++) {
        await op(c, i);
        done++;
      }
    }),
  );
  return (done / ms) * 1000;
}

/** The CPU time redis-server has used so far, user and system, in µs (INFO cpu). */
async function serverCpuUs(client) {
  const info = await client.info("cpu");
  const seconds = (name) => Number(new RegExp(`^${name}:([\\d.]+)`, "m").exec(info)?.[1]);
  const total = seconds("used_cpu_user") + seconds("used_cpu_sys");
  if (!Number.isFinite(total)) throw new Error(`INFO cpu gave no CPU time: ${info}`);
  return total * 1e6;
}

/**
 * `rate` of `op`, and the CPU it cost per operation, in µs: in this process (the store and
 * node-redis) and in redis-server (the script, the commands it calls, their AOF records).
 */
async function costedRate(client, callers, ms, op) {
  const node = process.cpuUsage();
  const server = await serverCpuUs(client);
  const perSecond = await rate(callers, ms, op);
  const serverUs = (await serverCpuUs(client)) - server;
  const { user, system } = process.cpuUsage(node);
  const ops = (perSecond * ms) / 1000;
  return { perSecond, nodeUs: (user + system) / ops, serverUs: serverUs / ops };
}

/** requests/s of redis-benchmark running `EVALSHA <sha> 0` (`sha` loaded) with `clients` connections. */
function evalShaCeiling(port, clients, sha) {
  const result = spawnSync(REDIS_BENCHMARK, ["-h", "127.0.0.1", "-p", String(port), "-c", String(clients), "-n", String(BENCHMARK_REQUESTS), "--csv", "EVALSHA", sha, "0"], {
    encoding: "utf8",
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`redis-benchmark exited ${result.status ?? result.signal}: ${result.stderr}`);
  const last = result.stdout.trim().split("\n").at(-1) ?? "";
  const rps = Number(/^"[^"]*","([\d.]+)"/.exec(last)?.[1]);
  if (!(rps > 0)) throw new Error(`redis-benchmark printed no rate: ${result.stdout}`);
  return rps;
}

export async function measureRedis() {
  const redis = await startRedis();
  if (redis === undefined) {
    missing("redis-server", "apt-get install redis-server");
    return { title: "Redis store (skipped: no redis-server)", data: {}, rows: [] };
  }
  const compiled = await loadCompiledModule();
  const client = createClient({ url: redis.url, scripts: seamRedisScripts, disableOfflineQueue: true });
  client.on("error", () => {});
  await client.connect();
  try {
    const store = createRedisSeenStore(client, { prefix: "bench" });
    const claims = {};
    const sets = {};
    let n = 0;
    const claim = async () => {
      const answer = await store.claim({ handoffId: `c-${n}`, taskId: `t-${n++}`, hopIndex: 1, producer: "intake", receiver: FIRST_RECEIVER, edge: null, verdict: "accepted", at: 0, path: ["intake", FIRST_RECEIVER] });
      if (answer.outcome !== "claimed") throw new Error(`a bench claim answered ${JSON.stringify(answer)}`);
    };
    // The store calls node-redis without its per-command timeout (redis-store.ts, untimed): so do
    // the SET NX and trivial EVALSHA it is measured beside.
    const untimed = client.withCommandOptions({ timeout: 0 });
    const set = () => untimed.set(`bench:set:${n++}`, "1", { NX: true, EX: 3600 });
    for (const callers of [1, 8, 64]) {
      progress(`redis: claims and SET NX, ${callers} concurrent callers, ${ROUNDS} interleaved rounds of ${ROUND_MS} ms each`);
      const claimRates = [];
      const setRates = [];
      for (let round = 0; round < ROUNDS; round++) {
        claimRates.push(await rate(callers, ROUND_MS, claim));
        setRates.push(await rate(callers, ROUND_MS, set));
      }
      claims[callers] = median(claimRates);
      sets[callers] = median(setRates);
    }
    progress(`redis: redis-benchmark EVALSHA of a trivial script (64 clients, ${BENCHMARK_REQUESTS} requests), the same from node-redis (64 callers, one client) and claims, ${ROUNDS} interleaved rounds, ${BESIDE_MS} ms each beside it`);
    const trivialSha = await client.scriptLoad("return 1");
    const canBenchmark = existsSync(REDIS_BENCHMARK);
    if (!canBenchmark) missing("redis-benchmark", "apt-get install redis-tools");
    const benchmarkRates = [];
    const trivialRates = [];
    const claimRates64 = [];
    // Where a claim's time goes: CPU per operation in this process and in redis-server.
    const cost = { claim: { nodeUs: [], serverUs: [] }, trivial: { nodeUs: [], serverUs: [] } };
    const costed = async (name, op) => {
      const measured = await costedRate(client, 64, BESIDE_MS, op);
      cost[name].nodeUs.push(measured.nodeUs);
      cost[name].serverUs.push(measured.serverUs);
      return measured.perSecond;
    };
    for (let round = 0; round < ROUNDS; round++) {
      if (canBenchmark) benchmarkRates.push(evalShaCeiling(redis.port, 64, trivialSha));
      trivialRates.push(await costed("trivial", () => untimed.evalSha(trivialSha, { keys: [], arguments: [] })));
      claimRates64.push(await costed("claim", claim));
    }
    const ceiling = canBenchmark ? median(benchmarkRates) : undefined;
    const clientCeiling = median(trivialRates);
    const claimsBesideClient = median(claimRates64);
    const cpu = Object.fromEntries(Object.entries(cost).map(([name, { nodeUs, serverUs }]) => [name, { nodeUs: median(nodeUs), serverUs: median(serverUs) }]));

    progress("redis: acceptAsync() with the Redis store vs accept() with the memory store, one caller");
    const canRead = () => true;
    const memory = createMemorySeenStore();
    const redisMs = [];
    const memoryMs = [];
    for (let round = 0; round < 3; round++) {
      // Fresh tasks every round (and for each store), so no claim is a duplicate.
      const remoteTasks = makeHandoffs(compiled, LATENCY_ENVELOPES, 1_000_000 + round * 100_000).first;
      const localTasks = makeHandoffs(compiled, LATENCY_ENVELOPES, 2_000_000 + round * 100_000).first;
      for (let i = 0; i < LATENCY_ENVELOPES; i++) {
        let t = nowMs();
        const remote = await compiled.acceptAsync(remoteTasks[i], { me: FIRST_RECEIVER, canRead, seen: store });
        if (round > 0) redisMs.push(nowMs() - t);
        t = nowMs();
        const local = compiled.accept(localTasks[i], { me: FIRST_RECEIVER, canRead, seen: memory });
        if (round > 0) memoryMs.push(nowMs() - t);
        if (!remote.ok || !local.ok) throw new Error(`the bench's hop-1 envelope is refused: ${JSON.stringify((remote.ok ? local : remote).rejection.reasons)}`);
      }
    }
    progress("redis: one claim's round trip, the shipped script vs version 1 vs the memory store, one caller");
    const roundTrip = await measureClaimRoundTrip(client, { createMemorySeenStore, createRedisSeenStore });
    const latency = {
      redis: { p50: quantile(redisMs, 0.5), p99: quantile(redisMs, 0.99) },
      memory: { p50: quantile(memoryMs, 0.5), p99: quantile(memoryMs, 0.99) },
    };
    const us = (value) => fmtMs(value / 1000);
    const rows = [];
    for (const callers of [1, 8, 64]) {
      rows.push(
        row(`Redis claims/s, ${callers} concurrent caller${callers === 1 ? "" : "s"} vs SET NX`, `${Math.round(claims[callers])}/s`, `${Math.round(sets[callers])}/s`, {
          ratio: claims[callers] / sets[callers],
        }),
      );
    }
    if (ceiling !== undefined) {
      rows.push(
        row("Redis claims/s, 64 callers vs redis-benchmark EVALSHA of `return 1`, 64 clients", `${Math.round(claimsBesideClient)}/s`, `${Math.round(ceiling)}/s`, {
          ratio: claimsBesideClient / ceiling,
          target: { op: ">=", value: 0.5 },
        }),
      );
    }
    rows.push(
      row("Redis claims/s, 64 callers vs node-redis EVALSHA of `return 1`, 64 callers, one client", `${Math.round(claimsBesideClient)}/s`, `${Math.round(clientCeiling)}/s`, {
        ratio: claimsBesideClient / clientCeiling,
      }),
      row("redis-server CPU per claim vs per node-redis EVALSHA of `return 1`, 64 callers", us(cpu.claim.serverUs), us(cpu.trivial.serverUs), { ratio: cpu.claim.serverUs / cpu.trivial.serverUs }),
      row("client CPU (store, node-redis) per claim vs per EVALSHA of `return 1`, 64 callers", us(cpu.claim.nodeUs), us(cpu.trivial.nodeUs), { ratio: cpu.claim.nodeUs / cpu.trivial.nodeUs }),
      row("acceptAsync() + Redis claim, p50, vs accept() + memory store", fmtMs(latency.redis.p50), fmtMs(latency.memory.p50), { ratio: latency.redis.p50 / latency.memory.p50 }),
      row("acceptAsync() + Redis claim, p99, vs accept() + memory store", fmtMs(latency.redis.p99), fmtMs(latency.memory.p99), { ratio: latency.redis.p99 / latency.memory.p99 }),
    );
    const trip = roundTrip;
    rows.push(
      row("Redis claim (shipped script) vs v1 script, first hop of a task", us(trip.v2), us(trip.v1), { ratio: trip.v2 / trip.v1 }),
      row("Redis claim (shipped script) vs v1 script, hops of 8-hop walks", us(trip.v2Walk), us(trip.v1Walk), { ratio: trip.v2Walk / trip.v1Walk }),
      row("Redis claim vs memory store claim, first hop of a task", us(trip.v2), us(trip.memory), { ratio: trip.v2 / trip.memory }),
      row("Redis claim vs memory store claim, hops of 8-hop walks", us(trip.v2Walk), us(trip.memoryWalk), { ratio: trip.v2Walk / trip.memoryWalk }),
    );
    return { title: "Redis store (loopback redis-server, appendfsync everysec)", data: { claims, sets, ceiling, clientCeiling, claimsBesideClient, cpu, latency, roundTrip }, rows };
  } finally {
    await client.quit();
    await redis.stop();
  }
}

runIfMain(import.meta.url, measureRedis);
