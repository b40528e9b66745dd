import { describe, expect, it } from "vitest";
import { createMemorySeenStore, type ClaimRequest } from "../../../src/runtime/seen-store.js";
import { accept, delegate, NOW, reasons, returning } from "./helpers.js";

const MESSAGE = 'claims to come from "billing", but the transport authenticated "refunds": refused without counting against "billing"';

describe("sender-mismatch", () => {
  it("refuses an envelope whose from_agent is not the authenticated sender, without asking the store", () => {
    const claims: ClaimRequest[] = [];
    const memory = createMemorySeenStore();
    const seen = { claim: (request: ClaimRequest) => (claims.push(request), memory.claim(request)) };
    const result = accept(returning(), { me: "triage", sender: "refunds", seen, now: () => NOW });
    expect(result).toEqual({
      ok: false,
      duplicate: false,
      rejection: {
        handoff_id: "5d0e7a21-3c4b-4f8a-b1d2-9e6f0a7c3b54",
        hop_index: 2,
        producer: "billing",
        attempt: null,
        repairs: 1,
        route: "escalate",
        reasons: [{ path: "/from_agent/id", rule: "sender-mismatch", message: MESSAGE }],
      },
    });
    expect(claims).toEqual([]);
  });

  it("spends none of the owner's repairs and takes no handoff_id the owner will use", () => {
    const seen = createMemorySeenStore();
    expect(accept(delegate(), { me: "billing", sender: "triage", seen, now: () => NOW }).ok).toBe(true);
    // A forger sends billing's return, faulty and then valid, under billing's name and ids.
    accept(returning((e) => delete e["artefacts"]), { me: "triage", sender: "refunds", seen, now: () => NOW });
    accept(returning(), { me: "triage", sender: "refunds", seen, now: () => NOW });
    // billing's own first fault is its first: it goes back for repair.
    const own = accept(returning((e) => delete e["artefacts"]), { me: "triage", sender: "billing", seen, now: () => NOW });
    expect(own.ok ? null : [own.rejection.route, own.rejection.attempt]).toEqual(["repair", 1]);
    // And its real return is accepted, not discarded as a duplicate.
    expect(accept(returning(), { me: "triage", sender: "billing", seen, now: () => NOW })).toMatchObject({ ok: true });
  });

  it("stays quiet when the sender is the producer, and without a sender", () => {
    expect(reasons(accept(delegate(), { me: "billing", sender: "triage" }))).toEqual([]);
    expect(reasons(accept(delegate(), { me: "billing" }))).toEqual([]);
  });

  it("refuses an envelope with no from_agent.id when a sender is given", () => {
    const found = reasons(accept(delegate((e) => delete e["from_agent"]), { me: "billing", sender: "triage" })).filter((r) => r.rule === "sender-mismatch");
    expect(found).toEqual([{ path: "/from_agent/id", rule: "sender-mismatch", message: 'claims to come from (no from_agent.id), but the transport authenticated "triage": refused without counting against (no from_agent.id)' }]);
  });

  it("is a TypeError when the sender is not a non-empty string", () => {
    expect(() => accept(delegate(), { me: "billing", sender: "" })).toThrow(
      new TypeError("accept(envelope, options): options.sender must be the producer's agent id as the transport authenticated it, a non-empty string"),
    );
  });
});
