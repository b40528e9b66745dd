// Redis store: what a claim on the shared task ledger costs, on Debian's redis-server (loopback,
// appendfsync everysec, bench/redis-server.mjs).
//   - claims per second with 1, 8 and 64 concurrent callers on one node-redis client, beside plain
//     SET NX at the same concurrency (rounds of 300 ms, the two interleaved, median), and at 64
//     callers beside redis-benchmark running EVALSHA of a trivial script (`return 1`) with 64
//     clients: the ceiling of any Lua-script store on this server; and beside the same trivial
//     EVALSHA sent by node-redis from 64 callers on one client, the ceiling of any store on that
//     client (what is left is the claim script's work and the store's own code); and beside
//     redis-benchmark running the claim script itself, a first hop with the store's very arguments
//     (fresh keys per request), for the server's share alone. They run in interleaved rounds, each
//     side about as long as the other and in the reverse order every other round, so that a change
//     in the machine's load moves both sides of a ratio; a ratio is the median of the rounds' own
//     ratios (each round's two sides measured back to back), the rates shown their medians; and
//     where a claim's time goes: the CPU per claim in redis-server and in the client (the store
//     and node-redis), beside the same for the trivial EVALSHA;
//   - beside those, redis-benchmark running a script that sends only the Redis commands of that
//     first hop (bench/fixtures/claim-floor.lua, checked to send the same ones): the most any
//     script keeping this ledger can reach on this server, whatever its decisions cost;
//   - the latency of acceptAsync() with the Redis store beside accept() with the memory store, one
//     caller, p50 and p99, on the hop-1 envelopes of bench/envelopes.mjs;
//   - the round trip of one claim, the shipped script beside the version 1 script and the memory
//     store (bench/redis-claim.mjs).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createClient } from "redis";
import { FIRST_RECEIVER, loadCompiledModule, makeHandoffs } from "./envelopes.mjs";
import { measureClaimRoundTrip } from "./redis-claim.mjs";
import { REDIS_BENCHMARK, startRedis } from "./redis-server.mjs";
import { missing, progress, runIfMain, scaled } from "./section.mjs";
import { median, nowMs, quantile } from "./stats.mjs";
import { fmtMs, row } from "./table.mjs";

const FLOOR = readFileSync(new URL("./fixtures/claim-floor.lua", import.meta.url), "utf8");
const { createMemorySeenStore, createRedisSeenStore, seamRedisScripts } = await import("../dist/runtime/index.js");

const ROUNDS = scaled(7, 1);
const ROUND_MS = scaled(300, 100);
// Rounds beside redis-benchmark last about as long as one of its runs (sized from its last rate),
// so that both sides see the same swings of the machine's load.
const BESIDE_MS = scaled(1000, 100);
const BESIDE_ROUNDS = scaled(9, 1);
const LATENCY_ENVELOPES = scaled(500, 50);
// redis-benchmark's first run of each command; later ones last about BESIDE_MS at its last rate.
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

/**
 * requests/s of redis-benchmark sending `command` (`EVALSHA <sha> ...`, the script loaded) `requests`
 * times from `clients` connections; each `__rand_int__` in it is a fresh random number per request.
 */
function benchmarkRate(port, clients, requests, command) {
  const options = ["-h", "127.0.0.1", "-p", String(port), "-c", String(clients), "-n", String(requests), "-r", "1000000000", "--csv"];
  const result = spawnSync(REDIS_BENCHMARK, [...options, ...command], {
    encoding: "utf8",
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`redis-benchmark exited ${result.status ?? result.signal}: ${result.stderr}`);
  const last = result.stdout.trim().split("\n").at(-1) ?? "";
  const rps = Number(/^"[^"]*","([\d.]+)"/.exec(last)?.[1]);
  if (!(rps > 0)) throw new Error(`redis-benchmark printed no rate: ${result.stdout}`);
  return rps;
}

/**
 * The command the store sends for the first hop of a new task (`claim` below), as redis-benchmark
 * arguments, with `__rand_int__` for the task and handoff ids: what the store passes, captured
 * from it, so the script runs on exactly its arguments.
 */
async function claimCommand(createRedisSeenStore, seamRedisScripts) {
  let sent;
  const capture = async (keys, args) => {
    sent = { keys, args };
    return ["claimed"];
  };
  const store = createRedisSeenStore({ seamClaim: capture, seamFinish: capture }, { prefix: "bench-rb" });
  await store.claim(firstHopRequest("__rand_int__", "__rand_int__"));
  return ["EVALSHA", seamRedisScripts.seamClaim.SHA1, String(sent.keys.length), ...sent.keys, "claim", ...sent.args];
}

/** The calls redis-server has counted so far, by command (INFO commandstats). */
async function commandCalls(client) {
  const info = await client.info("commandstats");
  return new Map([...info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map((m) => [m[1], Number(m[2])]));
}

/**
 * The commands `command` (a redis-benchmark command line) makes a script send, as "name x count"
 * sorted, run once with each `__rand_int__` replaced by `id` (fresh keys, so a first hop).
 */
async function commandsSent(client, command, id) {
  const before = await commandCalls(client);
  await client.sendCommand(command.map((word) => word.replaceAll("__rand_int__", id)));
  const after = await commandCalls(client);
  const sent = [];
  for (const [name, calls] of after) {
    const more = calls - (before.get(name) ?? 0);
    if (more > 0 && name !== "info" && name !== "evalsha") sent.push(`${name} x${more}`);
  }
  return sent.sort().join(", ");
}

/** The first hop of a new task, as the bench claims it. */
function firstHopRequest(handoffId, taskId) {
  return { handoffId, taskId, hopIndex: 1, producer: "intake", receiver: FIRST_RECEIVER, edge: null, verdict: "accepted", at: 0, path: ["intake", FIRST_RECEIVER] };
}

/** The median of `rounds`' ratios `a / b`: each round's two sides were measured back to back. */
const pairedRatio = (rounds, a, b) => median(rounds.map((round) => round[a] / round[b]));

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
      const answer = await store.claim(firstHopRequest(`c-${n}`, `t-${n++}`));
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
    progress(`redis: redis-benchmark EVALSHA of a trivial script and of the claim script and of its commands alone (64 clients), the same trivial script from node-redis (64 callers, one client) and claims, ${BESIDE_ROUNDS} interleaved rounds of about ${BESIDE_MS} ms each`);
    const trivialSha = await client.scriptLoad("return 1");
    const canBenchmark = existsSync(REDIS_BENCHMARK);
    if (!canBenchmark) missing("redis-benchmark", "apt-get install redis-tools");
    const claimScript = await claimCommand(createRedisSeenStore, seamRedisScripts);
    await client.scriptLoad(seamRedisScripts.seamClaim.SCRIPT);
    const floorScript = ["EVALSHA", await client.scriptLoad(FLOOR), ...claimScript.slice(2)];
    const claimSends = await commandsSent(client, claimScript, "floor-check-claim");
    const floorSends = await commandsSent(client, floorScript, "floor-check-floor");
    if (claimSends !== floorSends) throw new Error(`bench/fixtures/claim-floor.lua sends ${floorSends}, but the claim script sends ${claimSends} for a first hop: make them the same`);
    // redis-benchmark's runs: each sized to last about BESIDE_MS at its command's last rate.
    const benchmarks = {
      trivial: { command: ["EVALSHA", trivialSha, "0"], requests: BENCHMARK_REQUESTS },
      claim: { command: claimScript, requests: BENCHMARK_REQUESTS },
      floor: { command: floorScript, requests: BENCHMARK_REQUESTS },
    };
    const benchmark = (name) => {
      const run = benchmarks[name];
      const perSecond = benchmarkRate(redis.port, 64, run.requests, run.command);
      run.requests = Math.max(1_000, Math.round((perSecond * BESIDE_MS) / 1000));
      return perSecond;
    };
    // Where a claim's time goes: CPU per operation in this process and in redis-server.
    const cost = { claim: { nodeUs: [], serverUs: [] }, trivial: { nodeUs: [], serverUs: [] } };
    const costed = async (name, op) => {
      const measured = await costedRate(client, 64, BESIDE_MS, op);
      cost[name].nodeUs.push(measured.nodeUs);
      cost[name].serverUs.push(measured.serverUs);
      return measured.perSecond;
    };
    const measures = {
      ceiling: () => benchmark("trivial"),
      claimScript: () => benchmark("claim"),
      floorScript: () => benchmark("floor"),
      clientCeiling: () => costed("trivial", () => untimed.evalSha(trivialSha, { keys: [], arguments: [] })),
      claims: () => costed("claim", claim),
    };
    const names = Object.keys(measures).filter((name) => canBenchmark || !["ceiling", "claimScript", "floorScript"].includes(name));
    const rounds = [];
    for (let round = 0; round < BESIDE_ROUNDS; round++) {
      const measured = {};
      // The reverse order every other round: no side always runs first, or always after the claims' writes.
      for (const name of round % 2 === 0 ? names : [...names].reverse()) measured[name] = await measures[name]();
      rounds.push(measured);
    }
    const medianOf = (name) => median(rounds.map((round) => round[name]));
    const ceiling = canBenchmark ? medianOf("ceiling") : undefined;
    const claimScriptRate = canBenchmark ? medianOf("claimScript") : undefined;
    const floorScriptRate = canBenchmark ? medianOf("floorScript") : undefined;
    const clientCeiling = medianOf("clientCeiling");
    const claimsBesideClient = medianOf("claims");
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
          ratio: pairedRatio(rounds, "claims", "ceiling"),
          target: { op: ">=", value: 0.5 },
        }),
        row("redis-benchmark EVALSHA of the claim script (a first hop) vs of `return 1`, 64 clients", `${Math.round(claimScriptRate)}/s`, `${Math.round(ceiling)}/s`, {
          ratio: pairedRatio(rounds, "claimScript", "ceiling"),
        }),
        row(`redis-benchmark EVALSHA of the claim's own commands alone (${claimSends}; no decisions) vs of \`return 1\`, 64 clients`, `${Math.round(floorScriptRate)}/s`, `${Math.round(ceiling)}/s`, {
          ratio: pairedRatio(rounds, "floorScript", "ceiling"),
        }),
      );
    }
    rows.push(
      row("Redis claims/s, 64 callers vs node-redis EVALSHA of `return 1`, 64 callers, one client", `${Math.round(claimsBesideClient)}/s`, `${Math.round(clientCeiling)}/s`, {
        ratio: pairedRatio(rounds, "claims", "clientCeiling"),
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
    return { title: "Redis store (loopback redis-server, appendfsync everysec)", data: { claims, sets, ceiling, claimScriptRate, floorScriptRate, claimCommands: claimSends, clientCeiling, claimsBesideClient, rounds, cpu, latency, roundTrip }, rows };
  } finally {
    await client.quit();
    await redis.stop();
  }
}

runIfMain(import.meta.url, measureRedis);
