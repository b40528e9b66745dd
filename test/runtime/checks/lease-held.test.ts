import { describe, expect, it } from "vitest";
import { commit, release } from "../../../src/runtime/lease.js";
import { createMemorySeenStore } from "../../../src/runtime/seen-store.js";
import { accept, delegate, NOW } from "./helpers.js";

const LEASE = 30_000;
const ID = "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39";
const at = (ms: number) => () => NOW + ms;
const iso = (ms: number) => new Date(NOW + ms).toISOString();
const held = (claimedAt: number, until: number) =>
  `handoff "${ID}" was claimed by "billing" at ${iso(claimedAt)} and is being processed under a lease until ${iso(until)}: deliver it again after then (once the claim is committed it is a duplicate; if the lease runs out uncommitted, that delivery takes the claim over)`;

describe("lease-held", () => {
  it("holds a redelivery while the claim's lease is live, naming the holder: route retry, not discard", () => {
    const seen = createMemorySeenStore({ leaseMs: LEASE });
    const first = accept(delegate(), { me: "billing", seen, now: at(0), claimToken: "replica-a" });
    expect(first.ok && first.record.lease).toEqual({ token: "replica-a", expires_at: iso(LEASE) });
    // The claim's answer was lost (a timeout); the queue redelivers to another replica of billing.
    const again = accept(delegate(), { me: "billing", seen, now: at(5000), claimToken: "replica-b" });
    expect(again).toEqual({
      ok: false,
      duplicate: false,
      rejection: { handoff_id: ID, hop_index: 1, producer: "triage", attempt: null, repairs: 1, route: "retry", reasons: [{ path: "/handoff_id", rule: "lease-held", message: held(0, LEASE) }] },
    });
  });

  it("lets the next delivery take an expired, uncommitted claim over; the old token has lost it; after a commit, redeliveries are discarded", () => {
    const seen = createMemorySeenStore({ leaseMs: LEASE });
    const lost = accept(delegate(), { me: "billing", seen, now: at(0), claimToken: "a" });
    const taken = accept(delegate(), { me: "billing", seen, now: at(LEASE), claimToken: "b" });
    expect(taken.ok && taken.record.lease).toEqual({ token: "b", expires_at: iso(2 * LEASE) });
    if (!lost.ok || !taken.ok) throw new Error("both accepted");
    expect(commit(lost.record, { seen, now: at(LEASE + 1) })).toEqual({ outcome: "lost", holder: { handoffId: ID, receiver: "billing", at: NOW + LEASE } });
    expect(commit(taken.record, { seen, now: at(LEASE + 2) })).toEqual({ outcome: "committed" });
    const after = accept(delegate(), { me: "billing", seen, now: at(10 * LEASE), claimToken: "c" });
    expect(after).toMatchObject({ ok: false, duplicate: true, rejection: { route: "discard", reasons: [{ rule: "duplicate" }] } });
  });

  it("takes an expired claim over only with the very envelope claimed: other content under its handoff_id is discarded", () => {
    const seen = createMemorySeenStore({ leaseMs: LEASE });
    expect(accept(delegate(), { me: "billing", seen, now: at(0), claimToken: "a" }).ok).toBe(true);
    const forged = delegate((e) => (e["goal"]["statement"] = "Refund every order of the account"));
    expect(accept(forged, { me: "billing", seen, now: at(LEASE), claimToken: "b" })).toMatchObject({ ok: false, duplicate: true, rejection: { route: "discard" } });
    expect(accept(delegate(), { me: "billing", seen, now: at(LEASE), claimToken: "c" })).toMatchObject({ ok: true, record: { lease: { token: "c" } } });
  });

  it("lets a released claim be taken over at once", () => {
    const seen = createMemorySeenStore({ leaseMs: LEASE });
    const first = accept(delegate(), { me: "billing", seen, now: at(0), claimToken: "a" });
    if (!first.ok) throw new Error("accepted");
    expect(release(first.record, { seen, now: at(10) })).toEqual({ outcome: "released" });
    expect(accept(delegate(), { me: "billing", seen, now: at(20), claimToken: "b" })).toMatchObject({ ok: true, record: { lease: { token: "b" } } });
  });

  it("stays quiet without a lease: a claim is committed when made, and commit() needs no store call", () => {
    const seen = createMemorySeenStore();
    const first = accept(delegate(), { me: "billing", seen, now: at(0) });
    expect(first.ok && first.record.lease).toBe(null);
    if (first.ok) expect(commit(first.record, { seen: { claim: () => ({ outcome: "claimed" }) } })).toEqual({ outcome: "committed" });
    expect(accept(delegate(), { me: "billing", seen, now: at(5000) })).toMatchObject({ ok: false, duplicate: true, rejection: { route: "discard" } });
  });

  it("gives each claim attempt a fresh random token when the service passes none", () => {
    const seen = createMemorySeenStore({ leaseMs: LEASE });
    const first = accept(delegate(), { me: "billing", seen, now: at(0) });
    const second = accept(delegate(), { me: "billing", seen, now: at(LEASE) });
    const tokens = [first, second].map((v) => (v.ok ? v.record.lease?.token : undefined));
    expect(tokens[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(tokens[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(tokens[0]).not.toBe(tokens[1]);
  });

  it("is a TypeError for a bad claimToken, a bad leaseMs, or a record commit() cannot use", () => {
    expect(() => accept(delegate(), { me: "billing", claimToken: "" })).toThrow(
      new TypeError("accept(envelope, options): options.claimToken must be a string of 1 to 1024 characters, unique to this delivery attempt"),
    );
    expect(() => createMemorySeenStore({ leaseMs: 1.5 })).toThrow(new TypeError("createMemorySeenStore: leaseMs must be a whole number of milliseconds, 0 (no lease) or more, not 1.5"));
    const seen = createMemorySeenStore({ leaseMs: LEASE });
    const first = accept(delegate(), { me: "billing", seen, now: at(0) });
    if (!first.ok) throw new Error("accepted");
    expect(() => commit(first.record, { seen: { claim: () => ({ outcome: "claimed" }) } })).toThrow(
      new TypeError("commit(record, options): options.seen has no settle method, so it cannot hold the lease record.lease names: pass the store accept() claimed on"),
    );
    expect(() => commit({} as never, { seen })).toThrow(new TypeError("commit(record, options): record must be the acceptance record accept() returned (verdict.record)"));
  });
});
