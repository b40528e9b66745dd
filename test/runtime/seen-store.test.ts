import { describe, expect, it } from "vitest";
import { createMemorySeenStore, type ClaimRequest } from "../../src/runtime/seen-store.js";

const request = (edit: Partial<ClaimRequest> = {}): ClaimRequest => ({
  handoffId: "h1",
  taskId: "t",
  hopIndex: 1,
  producer: "triage",
  receiver: "billing",
  edge: { kind: "delegate", from: "triage", to: "billing" },
  verdict: "accepted",
  at: 1000,
  ...edit,
});

describe("createMemorySeenStore().claim", () => {
  it("claims an accepted delivery and answers a redelivery of its handoff_id as a duplicate", () => {
    const store = createMemorySeenStore();
    expect(store.claim(request())).toEqual({ outcome: "claimed" });
    expect(store.claim(request({ hopIndex: 2, at: 2000 }))).toEqual({
      outcome: "duplicate",
      of: "handoff",
      holder: { handoffId: "h1", receiver: "billing", at: 1000 },
    });
  });

  it("answers the same task and hop to the same receiver under a fresh handoff_id as a replay", () => {
    const store = createMemorySeenStore();
    store.claim(request());
    expect(store.claim(request({ handoffId: "h2" }))).toEqual({
      outcome: "duplicate",
      of: "hop",
      holder: { handoffId: "h1", receiver: "billing", at: 1000 },
    });
  });

  it("refuses a second receiver for a task's hop without writing", () => {
    const store = createMemorySeenStore();
    store.claim(request());
    expect(store.claim(request({ handoffId: "h2", receiver: "refunds" }))).toEqual({ outcome: "owner-conflict", owner: "billing" });
    // h2 was not recorded: billing may still receive it at the next hop.
    expect(store.claim(request({ handoffId: "h2", hopIndex: 3 }))).toEqual({ outcome: "claimed" });
  });

  it("notes a rejection without owning anything, so a retry (same or fresh id) is judged afresh", () => {
    const store = createMemorySeenStore();
    expect(store.claim(request({ verdict: "rejected" }))).toEqual({ outcome: "noted" });
    expect(store.claim(request({ verdict: "rejected" }))).toEqual({ outcome: "noted" });
    expect(store.claim(request())).toEqual({ outcome: "claimed" });
    const other = createMemorySeenStore();
    other.claim(request({ verdict: "rejected" }));
    expect(other.claim(request({ handoffId: "h9" }))).toEqual({ outcome: "claimed" });
  });

  it("reports a rejected delivery that repeats an accepted one as the duplicate it is", () => {
    const store = createMemorySeenStore();
    store.claim(request());
    expect(store.claim(request({ verdict: "rejected" }))).toMatchObject({ outcome: "duplicate", of: "handoff" });
    expect(store.claim(request({ handoffId: "h2", receiver: "refunds", verdict: "rejected" }))).toEqual({
      outcome: "owner-conflict",
      owner: "billing",
    });
  });

  it("keeps tasks apart", () => {
    const store = createMemorySeenStore();
    store.claim(request());
    expect(store.claim(request({ handoffId: "h2", taskId: "t2" }))).toEqual({ outcome: "claimed" });
  });
});
