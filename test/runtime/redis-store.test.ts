/**
 * The Redis store against a real Redis (Debian's redis-server, started on a free loopback port,
 * stopped by PID): its keys and their expiry, strict replies, failures, and replicas racing.
 * What it decides is the store contract (store-contract.test.ts). Skipped, with one line naming
 * the package, where redis-server is missing.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createRedisSeenStore, LEDGER_SCRIPT, redisKey, seamRedisScripts, StoreUnavailableError, type SeamRedisClient } from "../../src/runtime/redis-store.js";
import type { ClaimRequest, ClaimResult } from "../../src/runtime/seen-store.js";
import { delivery, HANDOFFS } from "./redis-deliveries.mjs";
import { clone, readJsonFixture, refundDesk } from "../emit/helpers.js";
import { graphModule } from "./graph-setup.js";
import { createRedisServer, redisAvailable } from "./redis-server.js";
import { useRedis } from "./redis-fixture.js";

const WORKER = fileURLToPath(new URL("./redis-worker.mjs", import.meta.url));
const redis = useRedis();
const connect = (url?: string) => redis.connect(url);

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

describe.skipIf(!redisAvailable)("Redis store: keys and expiry", () => {
  const at = 1_764_500_000_000;
  const hop = (handoffId: string, index: number, producer: string, receiver: string): Partial<ClaimRequest> => ({ handoffId, hopIndex: index, producer, receiver });

  it("writes one ledger hash per task and one key per accepted handoff, under the prefix", async () => {
    const client = await connect();
    const store = createRedisSeenStore(client, { prefix: "t-keys", ttlSeconds: 3600 });
    await store.claim(request({ taskId: "task:with:colons", path: ["triage", "billing"] }));
    const second = { ...hop("h-2", 2, "billing", "refunds"), taskId: "task:with:colons" };
    await store.claim(request({ ...second, edge: { kind: "delegate", from: "billing", to: "refunds" }, verdict: "rejected" }));
    await store.claim(request({ ...second, producer: "intake", verdict: "rejected" }));
    expect((await client.keys("t-keys*")).sort()).toEqual(["t-keys:a:6:triage:h-1", "t-keys:t:task:with:colons"]);
    expect(await client.get("t-keys:a:6:triage:h-1")).toBe("t-keys:t:task:with:colons");
    const ledger = await client.hGetAll("t-keys:t:task:with:colons");
    // The round's refusal counts: one per producer over an edge, one for deliveries over none.
    expect(ledger).toEqual({ touched: String(at), hops: expect.any(String), path: '["triage","billing"]', "r:e:billing": "1", "r:n": "1" });
    expect(JSON.parse(ledger["hops"] as string)).toEqual([{ i: "1", id: "h-1", p: "triage", r: "billing", at: String(at), k: "t-keys:a:6:triage:h-1" }]);
    // The next accepted hop starts a new round: the counts go.
    expect(await store.claim(request(second))).toEqual({ outcome: "claimed" });
    expect(Object.keys(await client.hGetAll("t-keys:t:task:with:colons")).sort()).toEqual(["hops", "touched"]);
  });

  it("clears the budget and the pending approval of the task when an accepted hop carries neither", async () => {
    const client = await connect();
    const store = createRedisSeenStore(client, { prefix: "t-clear", ttlSeconds: 3600 });
    const fields = async () => Object.keys(await client.hGetAll("t-clear:t:task-1")).sort();
    const budget = { limit: { tokens: 100 }, consumed: { tokens: 10 } };
    expect(await store.claim(request({ budget, approval: { waits: true, cites: null }, path: ["triage", "billing"] }))).toEqual({ outcome: "claimed" });
    expect(await fields()).toEqual(["approval", "budget", "hops", "path", "touched"]);
    expect(await store.claim(request({ ...hop("h-2", 2, "billing", "refunds"), approval: { waits: false, cites: "h-1" } }))).toEqual({ outcome: "claimed" });
    expect(await fields()).toEqual(["hops", "touched"]);
    // A hop that keeps them writes them again.
    expect(await store.claim(request({ ...hop("h-3", 3, "refunds", "billing"), budget, approval: { waits: true, cites: null } }))).toEqual({ outcome: "claimed" });
    expect(await client.hGet("t-clear:t:task-1", "budget")).toBe('["100","","","","","10","","","",""]');
    expect(await client.hGet("t-clear:t:task-1", "approval")).toBe("h-3");
  });

  it("names a long id, or one with an unpaired surrogate, by its SHA-256: keys stay bounded and distinct", async () => {
    expect(redisKey("p", "t", "x".repeat(200))).toBe(`p:t:${"x".repeat(200)}`);
    expect(redisKey("p", "t", "x".repeat(201))).toMatch(/^p:t#[0-9a-f]{64}$/);
    expect(redisKey("p", "a", "\ud800")).toMatch(/^p:a#[0-9a-f]{64}$/);
    expect(redisKey("p", "a", "\ud800")).not.toBe(redisKey("p", "a", "\udc00"));
    expect(redisKey("p", "a", "\ud83d\ude00")).toBe("p:a:\ud83d\ude00");
    const client = await connect();
    const store = createRedisSeenStore(client, { prefix: "t-long" });
    expect(await store.claim(request({ taskId: "t".repeat(1_000_000), handoffId: "\udfff" }))).toEqual({ outcome: "claimed" });
    const keys = await client.keys("t-long*");
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key).toMatch(/^t-long:[ta]#[0-9a-f]{64}$/);
  });

  it("gives every key of a task one deadline, ttlSeconds after its last write, refreshed by each write", async () => {
    const client = await connect();
    const store = createRedisSeenStore(client, { prefix: "t-ttl", ttlSeconds: 3600 });
    await store.claim(request());
    await client.expire("t-ttl:a:6:triage:h-1", 100);
    await client.expire("t-ttl:t:task-1", 100);
    // A refusal is a write: the task key and the older hop's handoff key get the full TTL again.
    expect(await store.claim(request(hop("h-2", 2, "intake", "refunds")))).toMatchObject({ outcome: "custody" });
    for (const key of ["t-ttl:a:6:triage:h-1", "t-ttl:t:task-1"]) {
      const ms = await client.pTTL(key);
      expect(ms, key).toBeGreaterThan(3_599_000);
      expect(ms, key).toBeLessThanOrEqual(3_600_000);
    }
    // A duplicate writes nothing: the deadlines stay.
    await client.expire("t-ttl:a:6:triage:h-1", 100);
    await client.expire("t-ttl:t:task-1", 100);
    expect(await store.claim(request())).toMatchObject({ outcome: "duplicate" });
    expect(await client.ttl("t-ttl:a:6:triage:h-1")).toBeLessThanOrEqual(100);
    expect(await client.ttl("t-ttl:t:task-1")).toBeLessThanOrEqual(100);
    // A claim and a finish are writes: every key of the task, old and new, gets the full TTL.
    expect(await store.claim(request(hop("h-2", 2, "billing", "refunds")))).toEqual({ outcome: "claimed" });
    await client.expire("t-ttl:a:6:triage:h-1", 100);
    expect(await store.finish({ taskId: "task-1", agent: "refunds", terminal: "refunded", outcome: "complete", at, entry: false })).toMatchObject({ outcome: "finished" });
    for (const key of ["t-ttl:a:6:triage:h-1", "t-ttl:a:7:billing:h-2", "t-ttl:t:task-1"]) expect(await client.pTTL(key), key).toBeGreaterThan(3_599_000);
  });

  it("forgets a task on Redis's clock too: its keys are gone ttlSeconds after the last write, and the task is new", async () => {
    const client = await connect();
    const store = createRedisSeenStore(client, { prefix: "t-expire", ttlSeconds: 1 });
    await store.claim(request());
    expect(await store.finish({ taskId: "task-1", agent: "billing", terminal: "done", outcome: "complete", at, entry: false })).toMatchObject({ outcome: "finished" });
    expect(await client.keys("t-expire*")).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await client.keys("t-expire*")).toEqual([]);
    expect(await store.claim(request())).toEqual({ outcome: "claimed" });
  });

  it("ignores a handoff key whose task no longer names it", async () => {
    const client = await connect();
    const store = createRedisSeenStore(client, { prefix: "t-stale" });
    await store.claim(request());
    await client.del("t-stale:t:task-1");
    expect(await store.claim(request({ taskId: "task-2" }))).toEqual({ outcome: "claimed" });
    expect(await client.get("t-stale:a:6:triage:h-1")).toBe("t-stale:t:task-2");
  });

  it("keeps deployments with different prefixes apart", async () => {
    const client = await connect();
    expect(await createRedisSeenStore(client, { prefix: "t-a" }).claim(request())).toEqual({ outcome: "claimed" });
    expect(await createRedisSeenStore(client, { prefix: "t-b" }).claim(request())).toEqual({ outcome: "claimed" });
  });

  it("versions its scripts, and never reads version 1's keys", async () => {
    expect(LEDGER_SCRIPT.split("\n")[0]).toBe("-- Seam ledger, version 7: the Redis store's one script, loaded by the JavaScript store");
    expect(seamRedisScripts.seamClaim.SHA1).toMatch(/^[0-9a-f]{40}$/);
    expect(seamRedisScripts.seamFinish.SHA1).toBe(seamRedisScripts.seamClaim.SHA1);
    const client = await connect();
    // What version 1 wrote for handoff h-1, hop 1 of task-1.
    await client.hSet("t-v1:h:h-1", { id: "h-1", receiver: "billing", at: "1" });
    await client.hSet("t-v1:o:1:task-1", { id: "h-1", receiver: "billing", at: "1" });
    expect(await createRedisSeenStore(client, { prefix: "t-v1" }).claim(request())).toEqual({ outcome: "claimed" });
  });

  it("refuses bad options, a client without the scripts and a request Lua cannot read, at once, as misuse", async () => {
    const client = await connect();
    expect(() => createRedisSeenStore(client, { prefix: "" })).toThrow(
      new TypeError("createRedisSeenStore: options.prefix must be 1 to 100 characters without whitespace, one per deployment (e.g. 'refund-desk-prod')"),
    );
    expect(() => createRedisSeenStore(client, { prefix: "p", ttlSeconds: 0 })).toThrow(TypeError);
    expect(() => createRedisSeenStore(client, { prefix: "p", scope: "replica" as never })).toThrow(new TypeError('createRedisSeenStore: options.scope must be "graph" or "receiver", not replica'));
    expect(() => createRedisSeenStore({} as never, { prefix: "p" })).toThrow(
      "createRedisSeenStore: the client has no seamClaim and seamFinish scripts: create it with createClient({ scripts: seamRedisScripts, ... })",
    );
    const store = createRedisSeenStore(client, { prefix: "t-misuse" });
    await expect(store.claim(request({ hopIndex: 1.5 }))).rejects.toThrow(new TypeError("RedisSeenStore.claim: request.hopIndex must be a whole number, 0 or more, or null"));
    await expect(store.claim(request({ at: Number.NaN }))).rejects.toThrow(new TypeError("RedisSeenStore.claim: request.at must be a finite number of ms since the Unix epoch"));
  });
});

describe("Redis store: the client its calls go through", () => {
  it("calls the scripts on node-redis's view of the client without a per-command timeout: the store's timeoutMs is the one deadline", async () => {
    const options: unknown[] = [];
    const called: string[] = [];
    const script = (name: string, reply: unknown) =>
      async function (this: unknown) {
        called.push(`${name} on ${this === view ? "the view" : "the client"}`);
        return reply;
      };
    const view: SeamRedisClient = { seamClaim: script("claim", ["claimed"]), seamFinish: script("finish", ["not-owner", "", ""]), seamSettle: script("settle", ["lost"]) };
    const client: SeamRedisClient = {
      ...view,
      withCommandOptions(given) {
        options.push(given);
        return view;
      },
    };
    const store = createRedisSeenStore(client, { prefix: "p", leaseMs: 1000 });
    expect(await store.claim(request())).toEqual({ outcome: "claimed" });
    await store.finish({ taskId: "t", agent: "a", terminal: "x", outcome: "complete", at: 1, entry: false });
    await store.settle({ handoffId: "h-1", taskId: "task-1", producer: "triage", token: "k", action: "commit", at: 1 });
    expect(options).toEqual([{ timeout: 0 }]);
    expect(called).toEqual(["claim on the view", "finish on the view", "settle on the view"]);
  });
});

describe("Redis store: a reply that is no result", () => {
  /** A client whose scripts answer `reply` (what a foreign script under the same SHA, or a proxy, might send). */
  const answering = (reply: unknown): SeamRedisClient => ({ seamClaim: async () => reply, seamFinish: async () => reply });
  const claimOf = (reply: unknown) => createRedisSeenStore(answering(reply), { prefix: "p" }).claim(request());
  const finishOf = (reply: unknown) => createRedisSeenStore(answering(reply), { prefix: "p" }).finish({ taskId: "t", agent: "a", terminal: "x", outcome: "complete", at: 1, entry: false });

  it.each([
    ["not an array", "OK"],
    ["empty", []],
    ["a number inside", ["noted", 1]],
    ["an unknown outcome", ["taken"]],
    ["an item too many", ["claimed", "x"]],
    ["an attempt of 0", ["noted", "0"]],
    ["an attempt that is no number", ["owner-conflict", "billing", "one"]],
    ["a duplicate of neither kind", ["duplicate", "task", "h", "billing", "1"]],
    ["a holder time that is no number", ["duplicate", "hop", "h", "billing", "soon"]],
    ["a custody with no fault", ["custody", "billing", "1", "1"]],
    ["an unknown custody fault", ["custody", "billing", "1", "1", "late"]],
    ["a path fault without its entry", ["custody", "billing", "1", "1", "path", "0"]],
    ["a last hop below 0", ["custody", "billing", "-1", "1", "reset"]],
    ["no owner but a last hop", ["custody", "", "2", "1", "skip"]],
    ["an owner with no last hop", ["custody", "billing", "", "1", "skip"]],
    ["an end with a hop that is no whole number", ["finished", "a", "x", "complete", "1", "1.5"]],
    ["an end cut short", ["finished", "a", "x", "complete"]],
  ])("a claim answered with %s is a StoreUnavailableError", async (_, reply) => {
    const error = await claimOf(reply).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect((error as Error).message).toBe(`Redis answered the claim with ${JSON.stringify(reply)}, which is not a claim result: is the key prefix shared with something else?`);
  });

  it("escapes and bounds what the reply carries in the message", async () => {
    const error = (await claimOf(["owner-conflict", `\u001b[2J\u202e${"x".repeat(500)}`]).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      `Redis answered the claim with ["owner-conflict","\\u001b[2J\\u202e${"x".repeat(171)}… (331 more characters), which is not a claim result: is the key prefix shared with something else?`,
    );
  });

  it("checks a finish reply as strictly", async () => {
    await expect(finishOf(["not-owner", "billing"])).rejects.toThrow(
      new StoreUnavailableError('Redis answered the finish with ["not-owner","billing"], which is not a finish result: is the key prefix shared with something else?'),
    );
    await expect(finishOf(["claimed"])).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(finishOf(["not-owner", "", "3"])).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await finishOf(["not-owner", "billing", "3"])).toEqual({ outcome: "not-owner", owner: "billing", lastHop: 3 });
    expect(await finishOf(["not-owner", "", ""])).toEqual({ outcome: "not-owner", owner: null, lastHop: null });
  });

  it("takes a well-formed reply of each shape", async () => {
    expect(await claimOf(["custody", "billing", "2", "3", "reset", "path", "0", "triage", "producer"])).toEqual({
      outcome: "custody",
      owner: "billing",
      lastHop: 2,
      attempt: 3,
      faults: [{ kind: "reset" }, { kind: "path", index: 0, expected: "triage" }, { kind: "producer" }],
    });
    expect(await claimOf(["custody", "", "", "2", "skip"])).toEqual({ outcome: "custody", owner: null, lastHop: null, attempt: 2, faults: [{ kind: "skip" }] });
    expect(await claimOf(["finished", "a", "x", "complete", "1.5", ""])).toEqual({ outcome: "finished", ended: { agent: "a", terminal: "x", outcome: "complete", at: 1.5, hopIndex: null } });
  });
});

describe.skipIf(!redisAvailable)("Redis store: a key that is not the store's", () => {
  it("fails the claim with StoreUnavailableError, naming Redis's error, and decides nothing", async () => {
    const client = await connect();
    await client.set("t-foreign:t:task-1", "someone else's string");
    const error = (await createRedisSeenStore(client, { prefix: "t-foreign" }).claim(request()).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.message).toMatch(/^Redis could not claim handoff h-1 \(.*WRONGTYPE.*\): it is neither accepted nor refused; deliver it again later$/);
  });
});

describe.skipIf(!redisAvailable)("Redis store: a Redis user without the rights", () => {
  it("fails the claim, saying the user's password or ACL needs fixing before a redelivery can help", async () => {
    const admin = await connect();
    await admin.sendCommand(["ACL", "SETUSER", "seam-readonly", "on", ">pw", "~*", "-@all", "+@connection"]);
    const url = new URL(redis.server().url);
    url.username = "seam-readonly";
    url.password = "pw";
    const error = (await createRedisSeenStore(await connect(url.toString()), { prefix: "t-acl" }).claim(request()).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.message).toMatch(
      /^Redis could not claim handoff h-1 \(NOPERM .+\): it is neither accepted nor refused; deliver it again later \(Redis refused the store's user: fix its password or ACL first\)$/,
    );
    expect(await admin.keys("t-acl*")).toEqual([]);
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

  it("rejects a finish the same ways: unreachable, or not answered in time", async () => {
    const end = { taskId: "task-1", agent: "billing", terminal: "done", outcome: "complete", at: 1, entry: false };
    const down = await createRedisServer();
    await down.start();
    const unreachable = createRedisSeenStore(await connect(down.url), { prefix: "t-down", timeoutMs: 500 });
    await down.remove();
    const error = (await unreachable.finish(end).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.message).toMatch(/^Redis could not record the end of task task-1 \(.+\): the task has not ended; call finish again later$/);
    const slow = createRedisSeenStore(await connect(), { prefix: "t-slow-finish", timeoutMs: 200 });
    await (await connect()).sendCommand(["CLIENT", "PAUSE", "1000", "ALL"]);
    await expect(slow.finish(end)).rejects.toThrow(
      new StoreUnavailableError("Redis did not answer the end of task task-1 within 200 ms: it may or may not be recorded; call finish again later"),
    );
    await new Promise((resolve) => setTimeout(resolve, 1100));
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
      Array.from({ length: workers }, (_, worker) => runWorker({ url: redis.server().url, prefix: "t-race", worker, count: HANDOFFS, retryUntil: 0, timeoutMs: 5000 })),
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
          expect(answer).toMatchObject({ outcome: "owner-conflict", owner: winner.receiver });
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
        runWorker({ url: redis.server().url, prefix: "t-fault", worker, count: HANDOFFS, retryUntil: Date.now() + 30_000, timeoutMs, paceMs: 10 }, () => {
          if ((answered += 50) >= (workers * HANDOFFS) / 4) quarter();
        }),
      ),
    );
    await midRun;
    await redis.server().stop();
    await new Promise((resolve) => setTimeout(resolve, 700));
    await redis.server().start();
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
      const hops = JSON.parse((await admin.hGet(`t-fault:t:${delivery(i, 0).taskId}`, "hops")) as string) as { id: string }[];
      expect(hops, `handoff ${i}: one hop recorded`).toHaveLength(1);
      const holder = hops[0] as { id: string };
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
