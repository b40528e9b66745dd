/**
 * Work and output are bounded by the graph, never by the size an attacker chooses: reasons per
 * rule, the hop.path walk, canRead calls, what the ledger (memory or Redis) is asked to keep.
 */
import { describe, expect, it } from "vitest";
import type { ClaimRequest } from "../../src/runtime/seen-store.js";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";
import { accept, acceptAsync, delegate, NOW, reasons } from "./checks/helpers.js";
import { useRedis } from "./redis-fixture.js";
import { redisAvailable } from "./redis-server.js";

/** The delegate with a hop.path of `n` entries that ends in its own handoff. */
function longPath(n: number) {
  return delegate((e) => {
    e["hop"]["path"] = Array.from({ length: n }, () => "x");
    e["hop"]["path"][n - 2] = "triage";
    e["hop"]["path"][n - 1] = "billing";
  });
}

function spyStore() {
  const claims: ClaimRequest[] = [];
  const memory = createMemorySeenStore();
  return { claims, seen: { claim: (request: ClaimRequest) => (claims.push(request), memory.claim(request)) } };
}

describe("bounded work", () => {
  it("walks hop.path only as far as the hop limit: 900,000 entries give 11 reasons", () => {
    const { claims, seen } = spyStore();
    const found = reasons(accept(longPath(900_000), { me: "billing", seen, now: () => NOW }));
    expect(found.map((r) => `${r.path} ${r.rule}`)).toEqual([
      "/hop/path hop-limit-reached",
      "/hop/path bad-hop-path",
      "/hop/path/0 bad-hop-path",
      ...Array.from({ length: 8 }, (_, i) => `/hop/path/${i + 1} bad-hop-path`),
    ]);
    expect(found[0]?.message).toBe("899999 handoffs are at or past the limit of graph refund_desk, 8: escalate to a human, do not forward");
    // The ledger is sent no more of the path than a walk within the limit holds.
    expect(claims.map((c) => c.path?.length)).toEqual([9]);
  });

  it("lists at most 20 reasons of one rule, then one counting the rest: 20,000 bad decisions", () => {
    const found = reasons(accept(delegate((e) => (e["decisions"] = Array.from({ length: 20_000 }, () => ({ id: 1 })))), { me: "billing" }));
    const counts = new Map<string, number>();
    for (const r of found) counts.set(r.rule, (counts.get(r.rule) ?? 0) + 1);
    expect([...counts.values()].every((n) => n <= 21)).toBe(true);
    expect(found.length).toBeLessThanOrEqual(21 * counts.size);
    expect(found.find((r) => r.rule === "type" && r.message.startsWith("and "))?.message).toBe("and 19980 more type reasons, not listed (a verdict lists at most 20 per rule)");
  });

  it("asks canRead once per distinct (ref, scope), at most 16 at a time", async () => {
    const many = (refs: (i: number) => string) =>
      delegate((e) => (e["artefacts"] = Array.from({ length: 100_000 }, (_, i) => ({ ref: refs(i), media_type: "text/plain", role: "required" }))));
    let calls = 0;
    expect((await acceptAsync(many(() => "artefact://x/same"), { me: "billing", canRead: async () => (calls++, true) })).ok).toBe(true);
    expect(calls).toBe(1);
    let inFlight = 0;
    let most = 0;
    calls = 0;
    const slow = async () => {
      calls++;
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return calls % 2 === 0;
    };
    const result = await acceptAsync(many((i) => `artefact://x/${i % 1000}`), { me: "billing", canRead: slow });
    expect([calls, most]).toEqual([1000, 16]);
    expect(result.ok ? [] : result.rejection.reasons.filter((r) => r.rule === "artefact-unreadable")).toHaveLength(21);
  });

  it("asks canRead once per distinct (ref, scope) among a few artefacts, and again past the eighth", () => {
    const refs = ["a", "a", "b", "a", "c", "d", "e", "f", "g", "h", "a", "i", "h"];
    const scopes = [undefined, undefined, undefined, "s", undefined, undefined, undefined, undefined, undefined, undefined, "s", undefined, undefined];
    const envelope = delegate(
      (e) => (e["artefacts"] = refs.map((r, i) => ({ ref: `artefact://x/${r}`, media_type: "text/plain", role: "required", ...(scopes[i] === undefined ? {} : { read_scope: scopes[i] }) }))),
    );
    const asked: string[] = [];
    expect(accept(envelope, { me: "billing", canRead: (ref, scope) => (asked.push(`${ref.slice(13)}${scope ?? ""}`), true) }).ok).toBe(true);
    expect(asked).toEqual(["a", "b", "as", "c", "d", "e", "f", "g", "h", "i"]);
  });

  it("writes nothing in the ledger for a delivery that could neither start nor continue a task", () => {
    const { claims, seen } = spyStore();
    for (const envelope of [{ task_id: "x" }, delegate((e) => (e["task_id"] = "t".repeat(257))), delegate((e) => (e["to_agent"]["id"] = "refunds"))]) {
      const result = accept(envelope, { me: "billing", seen, now: () => NOW });
      expect(result.ok ? null : [result.rejection.route, result.rejection.attempt]).toEqual(["escalate", null]);
    }
    expect(claims).toEqual([]);
    expect(reasons(accept(delegate((e) => (e["task_id"] = "t".repeat(257))), { me: "billing" }))).toEqual([
      { path: "/task_id", rule: "id-too-long", message: "is 257 UTF-16 code units long; ids are at most 256" },
    ]);
  });

  it("stays quiet and asks the store once for a task_id of 256 characters on a valid hop", () => {
    const { claims, seen } = spyStore();
    expect(accept(delegate((e) => (e["task_id"] = "t".repeat(256))), { me: "billing", seen, now: () => NOW }).ok).toBe(true);
    expect(claims).toHaveLength(1);
  });
});

describe.skipIf(!redisAvailable)("bounded work: the Redis store", () => {
  const redis = useRedis();

  it("refuses a 130,000-entry hop.path as the memory store does, never a RangeError or an unavailable store", async () => {
    for (const n of [100_000, 130_000, 200_000]) {
      const seen = await redis.store();
      const result = await acceptAsync(longPath(n), { me: "billing", seen, now: () => NOW });
      expect(result.ok ? null : result.rejection.reasons[0]?.rule).toBe("hop-limit-reached");
      expect(result).toEqual(accept(longPath(n), { me: "billing", seen: createMemorySeenStore(), now: () => NOW }));
    }
  });
});
