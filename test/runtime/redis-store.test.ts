/**
 * The Redis store against a real Redis (Debian's redis-server, started on a free loopback port,
 * stopped by PID). Skipped, with one line naming the package, where redis-server is missing.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createClient } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisSeenStore, seamRedisScripts, StoreUnavailableError } from "../../src/runtime/redis-store.js";
import type { ClaimRequest, ClaimResult } from "../../src/runtime/seen-store.js";
import { delivery, HANDOFFS } from "./redis-deliveries.mjs";
import { clone, readJsonFixture, refundDesk } from "../emit/helpers.js";
import { graphModule } from "./graph-setup.js";
import { createRedisServer, redisAvailable, type RedisServer } from "./redis-server.js";

if (!redisAvailable) console.warn("skipped: the Redis store tests need Debian's redis-server package (apt-get install redis-server)");

const WORKER = fileURLToPath(new URL("./redis-worker.mjs", import.meta.url));
let server: RedisServer;
const clients: { quit(): Promise<unknown>; destroy(): void }[] = [];

beforeAll(async () => {
  if (!redisAvailable) return;
  server = await createRedisServer();
  await server.start();
}, 20_000);

afterAll(async () => {
  for (const client of clients) await client.quit().catch(() => client.destroy());
  await server?.remove();
});

async function connect(url = server.url) {
  const client = createClient({ url, scripts: seamRedisScripts, disableOfflineQueue: true, socket: { connectTimeout: 500, reconnectStrategy: false } });
  client.on("error", () => {});
  await client.connect();
  clients.push(client);
  return client;
}

function request(overrides: Partial<ClaimRequest> = {}): ClaimRequest {
  return { handoffId: "h-1", taskId: "task-1", hopIndex: 1, producer: "triage", receiver: "billing", edge: null, verdict: "accepted", at: 1_764_500_000_000, ...overrides };
}

/** Runs one worker process; resolves with what it printed. `onAnswered` hears every 50 answers. */
function runWorker(config: Record<string, unknown>, onAnswered: () => void = () => {}): Promise<{ worker: number; answers: (ClaimResult | null)[]; errors: { i: number; name: string; message: string }[]; slowest: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER, JSON.stringify(config)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => {
      const text = c.toString();
      for (const _ of text.matchAll(/^answered \d+$/gm)) onAnswered();
      err += text;
    });
    child.once("exit", (code) => {
      if (code !== 0) reject(new Error(`worker exited ${code}: ${err}`));
      else resolve(JSON.parse(out));
    });
  });
}

describe.skipIf(!redisAvailable)("Redis store: one claim decides", () => {
  it("claims a new handoff, then answers a redelivery, a replay under a fresh id and another receiver", async () => {
    const store = createRedisSeenStore(await connect(), { prefix: "t-decide" });
    expect(await store.claim(request())).toEqual({ outcome: "claimed" });
    const holder = { handoffId: "h-1", receiver: "billing", at: 1_764_500_000_000 };
    expect(await store.claim(request({ at: 5 }))).toEqual({ outcome: "duplicate", of: "handoff", holder });
    expect(await store.claim(request({ handoffId: "h-2" }))).toEqual({ outcome: "duplicate", of: "hop", holder });
    expect(await store.claim(request({ handoffId: "h-3", receiver: "refunds" }))).toEqual({ outcome: "owner-conflict", owner: "billing" });
    expect(await store.claim(request({ handoffId: "h-4", hopIndex: 2 }))).toEqual({ outcome: "claimed" });
  });

  it("notes a rejected delivery without owning anything, so a retry can still be accepted", async () => {
    const store = createRedisSeenStore(await connect(), { prefix: "t-noted" });
    expect(await store.claim(request({ verdict: "rejected" }))).toEqual({ outcome: "noted" });
    expect(await store.claim(request({ verdict: "rejected" }))).toEqual({ outcome: "noted" });
    expect(await store.claim(request())).toEqual({ outcome: "claimed" });
  });

  it("writes keys under the deployment's prefix, with the expiry", async () => {
    const client = await connect();
    const store = createRedisSeenStore(client, { prefix: "t-keys", ttlSeconds: 3600 });
    await store.claim(request({ taskId: "task:with:colons" }));
    expect((await client.keys("t-keys:*")).sort()).toEqual(["t-keys:h:h-1", "t-keys:o:1:task:with:colons"]);
    expect(await client.hGetAll("t-keys:o:1:task:with:colons")).toEqual({ id: "h-1", receiver: "billing", at: "1764500000000" });
    for (const key of ["t-keys:h:h-1", "t-keys:o:1:task:with:colons"]) {
      const ttl = await client.ttl(key);
      expect(ttl).toBeGreaterThan(3590);
      expect(ttl).toBeLessThanOrEqual(3600);
    }
  });

  it("keeps deployments with different prefixes apart", async () => {
    const client = await connect();
    expect(await createRedisSeenStore(client, { prefix: "t-a" }).claim(request())).toEqual({ outcome: "claimed" });
    expect(await createRedisSeenStore(client, { prefix: "t-b" }).claim(request())).toEqual({ outcome: "claimed" });
  });

  it("refuses bad options and a client without the script at once, as misuse", async () => {
    const client = await connect();
    expect(() => createRedisSeenStore(client, { prefix: "" })).toThrow(
      new TypeError("createRedisSeenStore: options.prefix must be 1 to 100 characters without whitespace, one per deployment (e.g. 'refund-desk-prod')"),
    );
    expect(() => createRedisSeenStore(client, { prefix: "p", ttlSeconds: 0 })).toThrow(TypeError);
    expect(() => createRedisSeenStore({} as never, { prefix: "p" })).toThrow(
      "createRedisSeenStore: the client has no seamClaim script: create it with createClient({ scripts: seamRedisScripts, ... })",
    );
  });
});

describe.skipIf(!redisAvailable)("Redis store: when Redis fails", () => {
  it("rejects with a clear StoreUnavailableError when Redis is unreachable", async () => {
    const down = await createRedisServer();
    await down.start();
    const client = await connect(down.url);
    const store = createRedisSeenStore(client, { prefix: "t-down", timeoutMs: 500 });
    await down.remove();
    const error = await store.claim(request()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toMatch(/^Redis could not claim handoff h-1 \(.+\): it is neither accepted nor refused; deliver it again later$/);
  });

  it("times out a claim Redis does not answer, within the timeout", async () => {
    const client = await connect();
    const store = createRedisSeenStore(client, { prefix: "t-slow", timeoutMs: 200 });
    const admin = await connect();
    await admin.sendCommand(["CLIENT", "PAUSE", "1500", "ALL"]);
    const started = Date.now();
    const error = await store.claim(request()).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toBe("Redis did not answer the claim of handoff h-1 within 200 ms: it may or may not be recorded; deliver it again later");
    await new Promise((resolve) => setTimeout(resolve, 1600));
  });
});

describe.skipIf(!redisAvailable)("Redis store: under acceptAsync", () => {
  const desk = graphModule(refundDesk());
  const base = readJsonFixture("cases", "envelopes", "valid-delegate.json") as Record<string, any>;

  it("accepts a handoff once when replicas race to take it, and refuses a fork of the same hop to another receiver", async () => {
    const seen = createRedisSeenStore(await connect(), { prefix: "t-accept" });
    const verdicts = await Promise.all(Array.from({ length: 8 }, () => desk.acceptAsync(clone(base), { me: "billing", seen })));
    expect(verdicts.filter((v) => v.ok)).toHaveLength(1);
    for (const v of verdicts.filter((v) => !v.ok)) expect(v).toMatchObject({ ok: false, duplicate: true, rejection: { route: "discard" } });
    // The same task's hop 1 handed to refunds as well: one owner at a time.
    const fork = clone(base);
    fork["handoff_id"] = "9b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39";
    fork["hop"] = { index: 1, limit: 8, path: ["triage", "refunds"] };
    fork["to_agent"] = { id: "refunds", role: "worker" };
    fork["goal"]["out_of_scope"] = ["Anything but the refund"];
    const refused = await desk.acceptAsync(fork, { me: "refunds", seen });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.rejection.reasons.map((r) => r.rule)).toEqual(["owner-conflict"]);
  });

  it("throws the store's StoreUnavailableError from acceptAsync: the handoff is neither accepted nor refused", async () => {
    const down = await createRedisServer();
    await down.start();
    const seen = createRedisSeenStore(await connect(down.url), { prefix: "t-accept-down", timeoutMs: 500 });
    await down.remove();
    await expect(desk.acceptAsync(clone(base), { me: "billing", seen })).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

describe.skipIf(!redisAvailable)("Redis store: replicas racing", () => {
  it("8 processes deliver the same 1,000 handoffs at once: each handoff and each (task, hop) is accepted exactly once", async () => {
    const workers = 8;
    const results = await Promise.all(
      Array.from({ length: workers }, (_, worker) => runWorker({ url: server.url, prefix: "t-race", worker, count: HANDOFFS, retryUntil: 0, timeoutMs: 5000 })),
    );
    for (const r of results) expect(r.errors).toEqual([]);
    for (let i = 0; i < HANDOFFS; i++) {
      const answers = results.map((r) => r.answers[i] as ClaimResult);
      const winners = results.filter((r) => r.answers[i]?.outcome === "claimed").map((r) => r.worker);
      expect(winners, `handoff ${i}`).toHaveLength(1);
      const winner = delivery(i, winners[0] as number);
      // Everyone else was told who holds the hop: a duplicate of the same receiver, or a conflict.
      for (const [w, answer] of answers.entries()) {
        if (w === winners[0]) continue;
        const mine = delivery(i, w);
        // The same id is a redelivery whoever sends it; a fresh id a replay, or another owner's hop.
        if (mine.handoffId === winner.handoffId) {
          expect(answer).toMatchObject({ outcome: "duplicate", of: "handoff", holder: { handoffId: winner.handoffId, receiver: winner.receiver } });
        } else if (mine.receiver === winner.receiver) {
          expect(answer).toMatchObject({ outcome: "duplicate", of: "hop", holder: { handoffId: winner.handoffId, receiver: winner.receiver } });
        } else {
          expect(answer).toEqual({ outcome: "owner-conflict", owner: winner.receiver });
        }
      }
    }
  }, 60_000);
});

describe.skipIf(!redisAvailable)("Redis store: a restart mid-run", () => {
  it("accepts nothing twice, answers every caller or fails it clearly, and no process hangs", async () => {
    const workers = 8;
    const timeoutMs = 300;
    // Redis goes down once a quarter of the deliveries are answered, for 700 ms.
    let answered = 0;
    let quarter: () => void;
    const midRun = new Promise<void>((resolve) => (quarter = resolve));
    const run = Promise.all(
      Array.from({ length: workers }, (_, worker) =>
        runWorker({ url: server.url, prefix: "t-fault", worker, count: HANDOFFS, retryUntil: Date.now() + 30_000, timeoutMs, paceMs: 10 }, () => {
          if ((answered += 50) >= (workers * HANDOFFS) / 4) quarter();
        }),
      ),
    );
    await midRun;
    await server.stop();
    await new Promise((resolve) => setTimeout(resolve, 700));
    await server.start();
    const results = await run;
    const admin = await connect();

    const errors = results.flatMap((r) => r.errors);
    expect(errors.length).toBeGreaterThan(0); // the restart did hit the run
    for (const e of errors) {
      expect(e.name).toBe("StoreUnavailableError");
      expect(e.message).toMatch(/^Redis (could not claim handoff|did not answer the claim of handoff) /);
    }
    for (const r of results) expect(r.slowest).toBeLessThan(timeoutMs + 1000);
    for (let i = 0; i < HANDOFFS; i++) {
      const winners = results.filter((r) => r.answers[i]?.outcome === "claimed").map((r) => r.worker);
      expect(winners.length, `handoff ${i} accepted twice`).toBeLessThanOrEqual(1);
      for (const r of results) expect(r.answers[i], `worker ${r.worker} got no answer for handoff ${i}`).toBeTruthy();
      const { taskId, hopIndex } = delivery(i, 0);
      const holder = await admin.hGetAll(`t-fault:o:${hopIndex}:${taskId}`);
      if (winners.length === 1) {
        expect(holder.id).toBe(delivery(i, winners[0] as number).handoffId);
      } else {
        // Nobody heard "claimed": the claim went through but its answer was lost in the restart.
        // Its holder is a delivery that got an error, and every later answer names that holder.
        const inDoubt = results.filter((r) => r.errors.some((e) => e.i === i)).map((r) => delivery(i, r.worker).handoffId);
        expect(inDoubt).toContain(holder.id);
      }
    }
  }, 60_000);
});
