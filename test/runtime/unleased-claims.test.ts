/**
 * A store that says it leases nothing (`leases: false`, as the memory store without `leaseMs`)
 * gets no random claim token from `accept()`: the fast path must give the very verdicts (same
 * keys, same order, same values) as a store that says nothing, which gets a token per claim.
 * Deliveries are generated valid and near-miss envelopes, each delivered twice (a redelivery).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import type { AcceptResult } from "../../src/runtime/accept.js";
import { createMemorySeenStore, type ClaimRequest, type SeenStore } from "../../src/runtime/seen-store.js";
import { refundDesk } from "../emit/helpers.js";
import { mutatedEnvelope, validEnvelope } from "./envelope-arbitrary.js";

const graph = refundDesk();
const { accept } = createGraphAccept(graph);
const AT = Date.UTC(2026, 2, 11, 8, 40, 19);

/** `store` behind a wrapper that records each request; `declare` keeps or hides its `leases`. */
function recording(store: SeenStore, declare: boolean): { store: SeenStore; requests: ClaimRequest[] } {
  const requests: ClaimRequest[] = [];
  const claim = (request: ClaimRequest) => {
    requests.push(request);
    return store.claim(request);
  };
  return { store: declare ? { claim, leases: store.leases as boolean } : { claim }, requests };
}

describe("claims on a store that leases nothing", () => {
  it("the memory store says whether it leases", () => {
    expect(createMemorySeenStore().leases).toBe(false);
    expect(createMemorySeenStore({ leaseMs: 1000 }).leases).toBe(true);
  });

  it("give the same verdicts without a token as with one, on valid and near-miss envelopes", () => {
    let accepted = 0;
    let claims = 0;
    fc.assert(
      fc.property(fc.array(fc.oneof(validEnvelope(graph), mutatedEnvelope(graph)), { minLength: 1, maxLength: 6 }), (deliveries) => {
        const fast = recording(createMemorySeenStore(), true);
        const slow = recording(createMemorySeenStore(), false);
        const now = () => AT;
        for (const { envelope, me } of [...deliveries, ...deliveries]) {
          const a: AcceptResult = accept(envelope, { me, seen: fast.store, now });
          const b: AcceptResult = accept(envelope, { me, seen: slow.store, now });
          expect(JSON.stringify(a)).toBe(JSON.stringify(b));
          if (a.ok) accepted++;
        }
        claims += fast.requests.length;
        expect(fast.requests.length).toBe(slow.requests.length);
        // The fast path was taken: no token made for the store that leases nothing, one for the other.
        for (const request of fast.requests) expect(request.token).toBeUndefined();
        for (const request of slow.requests) expect(request.token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }),
      { numRuns: 300, seed: 20261202 },
    );
    // Vacuous if nothing was claimed or accepted.
    expect(claims).toBeGreaterThan(300);
    expect(accepted).toBeGreaterThan(50);
  });

  it("a caller's claimToken is still passed on", () => {
    const fast = recording(createMemorySeenStore(), true);
    fc.assert(
      fc.property(validEnvelope(graph), ({ envelope, me }) => {
        accept(envelope, { me, seen: fast.store, claimToken: "delivery-7" });
      }),
      { numRuns: 20, seed: 7 },
    );
    expect(fast.requests.length).toBeGreaterThan(0);
    for (const request of fast.requests) expect(request.token).toBe("delivery-7");
  });

  it("a leasing store gets a token and the record holds it", () => {
    const leasing = recording(createMemorySeenStore({ leaseMs: 60_000 }), true);
    let leased = 0;
    fc.assert(
      fc.property(validEnvelope(graph), ({ envelope, me }) => {
        const verdict = accept(envelope, { me, seen: leasing.store, now: () => AT });
        if (verdict.ok) {
          leased++;
          expect(verdict.record.lease?.token).toBe(leasing.requests[leasing.requests.length - 1]?.token);
          expect(verdict.record.lease?.token).toMatch(/^[0-9a-f-]{36}$/);
        }
      }),
      { numRuns: 100, seed: 11 },
    );
    expect(leased).toBeGreaterThan(0);
  });

  it("a store that leases a claim after saying it leases none is a TypeError", () => {
    const liar: SeenStore = { leases: false, claim: () => ({ outcome: "claimed", leaseUntil: AT + 1000 }) };
    const found = fc.sample(validEnvelope(graph), { numRuns: 50, seed: 3 });
    const { envelope, me } = found.find(({ envelope, me }) => accept(envelope, { me }).ok) as (typeof found)[number];
    expect(() => accept(envelope, { me, seen: liar, now: () => AT })).toThrow(/leases: false/);
  });
});
