import { describe, expect, it } from "vitest";
import { createGraphAccept } from "../../../src/emit/graph-accept.js";
import { createMemorySeenStore } from "../../../src/runtime/seen-store.js";
import { ARTEFACTS, approval, decision, guardGraph, handoffId, hopEnvelope, type EnvelopeBase } from "./guard-helpers.js";
import { reasons } from "./helpers.js";
import { checkedGraph, readFixture } from "../../emit/helpers.js";

describe("guard-unmet", () => {
  describe("the payout still pending (microsoft/agent-framework#5035)", () => {
    const payouts = guardGraph("payout-pending");
    const base: EnvelopeBase = { version: "1.4.0", limit: payouts.hopLimit, roles: { desk: "supervisor", approver: "worker", payer: "worker" } };
    const toPayer = (status: string) =>
      hopEnvelope(base, ["desk", "approver", "payer"], { status, decisions: [decision("amount", 0.95)], artefacts: ARTEFACTS, approval: approval(handoffId(1)) });

    it("refuses a payout still waiting_review at /status, naming the guard, the value and the route the graph chooses", () => {
      const seen = createMemorySeenStore();
      expect(payouts.accept(hopEnvelope(base, ["desk", "approver"], { constraints: ["Pay only approved invoices"] }), { me: "approver", seen }).ok).toBe(true);
      const result = payouts.accept(toPayer("waiting_review"), { me: "payer", seen });
      expect(result.ok ? null : result.rejection.route).toBe("repair");
      expect(reasons(result)).toEqual([
        {
          path: "/status",
          rule: "guard-unmet",
          message: 'is "waiting_review", but transfer approver -> payer is taken only when status is ready; the graph routes it over return approver -> desk otherwise',
        },
        {
          path: "/status",
          rule: "approval-pending",
          message: "is waiting_review: what still waits for review does not leave the approval gate approver; hand it on once approved, with the approval record",
        },
      ]);
    });

    it("stays quiet for an approved, ready payout", () => {
      const seen = createMemorySeenStore();
      payouts.accept(hopEnvelope(base, ["desk", "approver"], { constraints: ["Pay only approved invoices"] }), { me: "approver", seen });
      const result = payouts.accept(toPayer("ready"), { me: "payer", seen });
      expect(reasons(result)).toEqual([]);
      expect(result.ok && result.record.route).toBe("proceed");
    });

    it("refuses what the earlier route takes over the otherwise edge", () => {
      const back = hopEnvelope(base, ["desk", "approver", "desk"], { status: "ready", artefacts: ARTEFACTS, decisions: [decision("amount", 0.95)], approval: approval(handoffId(1)) });
      expect(reasons(payouts.accept(back, { me: "desk" }))).toEqual([
        {
          path: "/status",
          rule: "guard-unmet",
          message: 'is "ready", so transfer approver -> payer (when status is ready) takes the envelope: return approver -> desk otherwise gets only what no other route of approver takes',
        },
      ]);
    });

    it("lets the otherwise edge take what no other route takes", () => {
      const back = hopEnvelope(base, ["desk", "approver", "desk"], { status: "failed", artefacts: ARTEFACTS, approval: approval(handoffId(1)) });
      expect(reasons(payouts.accept(back, { me: "desk" }))).toEqual([]);
    });
  });

  describe("a router of several guards", () => {
    const source = guardGraph("confidence-floor");
    const base: EnvelopeBase = { version: "1.3.0", limit: source.hopLimit, roles: { pricer: "peer", buyer: "peer", reviewer: "peer", archive: "peer" } };
    const transfer = (to: string, fields: Record<string, unknown>) => hopEnvelope(base, ["pricer", to], { artefacts: ARTEFACTS, decisions: [decision("price", 0.95)], ...fields });

    it("refuses a status the guard does not name, naming the route that takes it", () => {
      // pricer's router: buyer when ready (floor 0.8 for price), reviewer otherwise; a blocked
      // envelope to the buyer is the reviewer's.
      expect(reasons(source.accept(transfer("buyer", { status: "blocked" }), { me: "buyer" }))).toEqual([
        {
          path: "/status",
          rule: "guard-unmet",
          message: 'is "blocked", but transfer pricer -> buyer is taken only when status is ready; the graph routes it over transfer pricer -> reviewer otherwise',
        },
      ]);
    });

    it("leaves a status the guard cannot read to the schema", () => {
      expect(reasons(source.accept(transfer("buyer", {}), { me: "buyer" }))).toEqual([{ path: "/status", rule: "required", message: 'missing required field "status"' }]);
    });
  });

  describe("the router without a default (langchain-ai/langgraph#6770), its guard-gap suppressed", () => {
    const text = `// seam-disable guard-gap -- failed hand-backs are handled by hand\n${readFixture("guards", "router-without-default.seam")}`;
    const desk = { ...createGraphAccept(checkedGraph(text)), hopLimit: 5 };
    const base: EnvelopeBase = { version: "1.3.0", limit: desk.hopLimit, roles: { triage: "supervisor", billing: "worker", review: "supervisor" } };
    const back = (status: string) => hopEnvelope(base, ["triage", "billing", "triage"], { status, artefacts: ARTEFACTS });

    it("refuses a status no route takes, and says so", () => {
      expect(reasons(desk.accept(back("failed"), { me: "triage" }))).toEqual([
        { path: "/status", rule: "guard-unmet", message: 'is "failed", but return billing -> triage is taken only when status is ready, partial; no route out of billing takes it' },
      ]);
    });

    it("stays quiet for a status its guard names", () => {
      expect(reasons(desk.accept(back("partial"), { me: "triage" }))).toEqual([]);
    });
  });

  describe("a confidence guard", () => {
    const desk = createGraphAccept(
      checkedGraph(`graph billing_desk {
  entry triage
  agent triage: supervisor { terminal done }
  agent billing: worker
  agent review: supervisor { terminal escalated escalate }
  delegate triage -> billing { max_rounds 2 }
  delegate review -> billing { max_rounds 1 }
  return billing -> triage when status is ready, partial and confidence >= 0.8
  return billing -> review otherwise
}`),
    );
    const base: EnvelopeBase = { version: "1.3.0", limit: 5, roles: { triage: "supervisor", billing: "worker", review: "supervisor" } };
    const back = (to: string, confidences: number[]) =>
      hopEnvelope(base, ["triage", "billing", to], { status: "ready", artefacts: ARTEFACTS, decisions: confidences.map((c, i) => decision(`d${i}`, c)) });

    it("refuses at the lowest decision's confidence, with its value", () => {
      expect(reasons(desk.accept(back("triage", [0.9, 0.7, 0.7]), { me: "triage" }))).toEqual([
        {
          path: "/decisions/1/confidence",
          rule: "guard-unmet",
          message:
            "is 0.7, the lowest decision confidence of the envelope, but return billing -> triage is taken only when status is ready, partial and confidence >= 0.8; the graph routes it over return billing -> review otherwise",
        },
      ]);
    });

    it("refuses a sure envelope over the otherwise edge at the earlier guard's first field", () => {
      expect(reasons(desk.accept(back("review", [0.9, 0.85]), { me: "review" }))).toEqual([
        {
          path: "/status",
          rule: "guard-unmet",
          message: 'is "ready", so return billing -> triage (when status is ready, partial and confidence >= 0.8) takes the envelope: return billing -> review otherwise gets only what no other route of billing takes',
        },
      ]);
    });

    it("stays quiet when every decision is sure enough, and for an unsure one over the otherwise edge", () => {
      expect(reasons(desk.accept(back("triage", [0.9, 0.8]), { me: "triage" }))).toEqual([]);
      expect(reasons(desk.accept(back("review", [0.9, 0.5]), { me: "review" }))).toEqual([]);
    });

    // No decisions have no lowest confidence: the guarded edge requires one, the otherwise edge
    // takes what it cannot (as the edge's JSON Schema says).
    it("refuses an envelope without decisions over the guarded edge, as the schema does", () => {
      const none = hopEnvelope(base, ["triage", "billing", "triage"], { status: "ready", artefacts: ARTEFACTS });
      expect(reasons(desk.accept(none, { me: "triage" }))).toEqual([{ path: "/decisions", rule: "required", message: 'missing required field "decisions"' }]);
      expect(reasons(desk.accept(back("triage", []), { me: "triage" }))).toEqual([{ path: "/decisions", rule: "min-items", message: "must have at least 1 item" }]);
    });

    it("lets the otherwise edge take an envelope without decisions", () => {
      expect(reasons(desk.accept(hopEnvelope(base, ["triage", "billing", "review"], { status: "ready", artefacts: ARTEFACTS }), { me: "review" }))).toEqual([]);
      expect(reasons(desk.accept(back("review", []), { me: "review" }))).toEqual([]);
    });
  });
});
