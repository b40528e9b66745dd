/**
 * Claim leases on a real redis-server: a claim whose answer the client never heard (a paused
 * server, a timeout) is held, then taken over, never lost; replicas racing on a claim or on its
 * takeover take it once; after a commit, redeliveries are discarded.
 */
import { describe, expect, it } from "vitest";
import type { AcceptResult } from "../../src/runtime/accept.js";
import { commitAsync } from "../../src/runtime/lease.js";
import { createRedisSeenStore, StoreUnavailableError } from "../../src/runtime/redis-store.js";
import { clone, readJsonFixture, refundDesk } from "../emit/helpers.js";
import { graphModule } from "./graph-setup.js";
import { redisAvailable } from "./redis-server.js";
import { useRedis } from "./redis-fixture.js";

const redis = useRedis();
const desk = graphModule(refundDesk());
const base = readJsonFixture("cases", "envelopes", "valid-delegate.json") as Record<string, unknown>;
const NOW = Date.UTC(2026, 11, 1, 9, 0, 0);
const LEASE = 30_000;
const at = (ms: number) => () => NOW + ms;
const routes = (verdicts: readonly AcceptResult[]) => verdicts.map((v) => (v.ok ? "accepted" : v.rejection.route)).sort();

describe.skipIf(!redisAvailable)("Redis store: claim leases", () => {
  it("a claim that timed out in the client but ran in Redis is held, then taken over: the handoff is processed, not discarded", async () => {
    const seen = createRedisSeenStore(await redis.connect(), { prefix: "lease-timeout", timeoutMs: 200, leaseMs: LEASE });
    const admin = await redis.connect();
    // The server holds the script until the pause ends, long after the client gave up on it.
    await admin.sendCommand(["CLIENT", "PAUSE", "700", "ALL"]);
    const error = await desk.acceptAsync(clone(base), { me: "billing", seen, now: at(0), claimToken: "lost-reply" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    await new Promise((resolve) => setTimeout(resolve, 900));
    // The queue redelivers: the claim is in Redis, uncommitted, its lease live.
    const held = await desk.acceptAsync(clone(base), { me: "billing", seen, now: at(1000), claimToken: "second" });
    expect(held).toMatchObject({ ok: false, duplicate: false, rejection: { route: "retry", attempt: null, reasons: [{ path: "/handoff_id", rule: "lease-held" }] } });
    if (!held.ok) expect(held.rejection.reasons[0]?.message).toContain(`was claimed by "billing" at ${new Date(NOW).toISOString()}`);
    // Once the lease ran out, the next delivery takes the claim over and processes the handoff.
    const taken = await desk.acceptAsync(clone(base), { me: "billing", seen, now: at(LEASE), claimToken: "third" });
    expect(taken).toMatchObject({ ok: true, record: { lease: { token: "third", expires_at: new Date(NOW + 2 * LEASE).toISOString() } } });
    if (!taken.ok) throw new Error("taken over");
    expect(await commitAsync(taken.record, { seen, now: at(LEASE + 500) })).toEqual({ outcome: "committed" });
    const after = await desk.acceptAsync(clone(base), { me: "billing", seen, now: at(3 * LEASE), claimToken: "fourth" });
    expect(after).toMatchObject({ ok: false, duplicate: true, rejection: { route: "discard", reasons: [{ rule: "duplicate" }] } });
  });

  it("a claim sent while another script keeps Redis busy is refused as unavailable, recorded nowhere: the redelivery is accepted", async () => {
    const admin = await redis.connect();
    await admin.sendCommand(["CONFIG", "SET", "busy-reply-threshold", "100"]);
    const seen = createRedisSeenStore(await redis.connect(), { prefix: "lease-busy", timeoutMs: 2000, leaseMs: LEASE });
    // Another client's script holds Redis for 0.8 s; past 100 ms Redis answers BUSY to others.
    const busy = (await redis.connect()).sendCommand(["EVAL", "local t = redis.call('TIME'); local s = t[1] * 1e6 + t[2]; repeat t = redis.call('TIME') until t[1] * 1e6 + t[2] - s > 800000; return 1", "0"]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const error = (await desk.acceptAsync(clone(base), { me: "billing", seen, now: at(0) }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error.message).toMatch(/^Redis could not claim handoff 0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39 \(BUSY .*\): it is neither accepted nor refused; deliver it again later$/);
    await busy;
    await admin.sendCommand(["CONFIG", "SET", "busy-reply-threshold", "5000"]);
    expect(await desk.acceptAsync(clone(base), { me: "billing", seen, now: at(1000) })).toMatchObject({ ok: true });
  });

  it("replicas racing for a handoff take it once; the others are told to retry, not to discard it", async () => {
    const clients = await Promise.all(Array.from({ length: 6 }, () => redis.connect()));
    const stores = clients.map((client) => createRedisSeenStore(client, { prefix: "lease-race", leaseMs: LEASE }));
    const first = await Promise.all(stores.map((seen, i) => desk.acceptAsync(clone(base), { me: "billing", seen, now: at(0), claimToken: `first-${i}` })));
    expect(routes(first)).toEqual(["accepted", "retry", "retry", "retry", "retry", "retry"]);
    // Nobody commits; after the lease, every replica gets a redelivery at once: one takes it over.
    const takeover = await Promise.all(stores.map((seen, i) => desk.acceptAsync(clone(base), { me: "billing", seen, now: at(LEASE + 1), claimToken: `takeover-${i}` })));
    expect(routes(takeover)).toEqual(["accepted", "retry", "retry", "retry", "retry", "retry"]);
    const winner = takeover.find((v) => v.ok);
    const loser = first.find((v) => v.ok);
    if (winner === undefined || !winner.ok || loser === undefined || !loser.ok) throw new Error("one winner each time");
    expect(await commitAsync(loser.record, { seen: stores[0] as never, now: at(LEASE + 2) })).toMatchObject({ outcome: "lost", holder: { receiver: "billing", at: NOW + LEASE + 1 } });
    expect(await commitAsync(winner.record, { seen: stores[1] as never, now: at(LEASE + 3) })).toEqual({ outcome: "committed" });
    const after = await Promise.all(stores.map((seen) => desk.acceptAsync(clone(base), { me: "billing", seen, now: at(5 * LEASE) })));
    expect(routes(after)).toEqual(Array(6).fill("discard"));
  });
});
