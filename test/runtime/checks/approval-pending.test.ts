import { describe, expect, it } from "vitest";
import { createGraphAccept } from "../../../src/emit/graph-accept.js";
import type { AcceptResult } from "../../../src/runtime/accept.js";
import { createMemorySeenStore } from "../../../src/runtime/seen-store.js";
import { checkedGraph, readFixture } from "../../emit/helpers.js";
import { ARTEFACTS, approval, decision, guardGraph, handoffId, hopEnvelope, type EnvelopeBase } from "./guard-helpers.js";
import { reasons } from "./helpers.js";

function routeOf(result: AcceptResult): string {
  return result.ok ? result.record.route : result.rejection.route;
}

describe("approval-pending", () => {
  describe("the re-delegation while an approval is pending (pydantic/pydantic-ai#3274)", () => {
    const desk = guardGraph("redelegate-pending");
    const base: EnvelopeBase = { version: "1.4.0", limit: desk.hopLimit, roles: { coordinator: "supervisor", booker: "worker" } };
    const walk = ["coordinator", "booker", "coordinator", "booker", "coordinator"];
    /** A store holding hop 1 (the delegation) and hop 2 (the booker's hand-back, waiting for review). */
    function waiting() {
      const seen = createMemorySeenStore();
      expect(desk.accept(hopEnvelope(base, walk.slice(0, 2), { constraints: ["Book refundable fares only"] }), { me: "booker", seen }).ok).toBe(true);
      const handBack = desk.accept(hopEnvelope(base, walk.slice(0, 3), { status: "waiting_review", artefacts: ARTEFACTS }), { me: "coordinator", seen });
      expect(routeOf(handBack)).toBe("approval");
      return seen;
    }
    const again = (fields: Record<string, unknown> = {}) => hopEnvelope(base, walk.slice(0, 4), { constraints: ["Book refundable fares only"], ...fields });

    it("refuses the coordinator's next delegation while the approval is pending", () => {
      const result = desk.accept(again(), { me: "booker", seen: waiting() });
      expect(routeOf(result)).toBe("repair");
      expect(reasons(result)).toEqual([
        {
          path: "/approval",
          rule: "approval-pending",
          message: `task "task-0042" waits for approval of handoff "${handoffId(2)}": every hop of it but the resumption citing that handoff in approval.pending_handoff_id is refused`,
        },
      ]);
    });

    it("refuses an approval that cites another handoff", () => {
      expect(reasons(desk.accept(again({ approval: approval(handoffId(1)) }), { me: "booker", seen: waiting() }))).toEqual([
        {
          path: "/approval/pending_handoff_id",
          rule: "approval-pending",
          message: `cites handoff "${handoffId(1)}", but task "task-0042" waits for approval of handoff "${handoffId(2)}": only the resumption citing that handoff may go on`,
        },
      ]);
    });

    it("accepts the resumption citing the pending handoff (in any case), after which the task goes on freely", () => {
      const seen = waiting();
      expect(reasons(desk.accept(again({ approval: approval(handoffId(2).toUpperCase()) }), { me: "booker", seen }))).toEqual([]);
      expect(reasons(desk.accept(hopEnvelope(base, walk, { status: "ready", artefacts: ARTEFACTS }), { me: "coordinator", seen }))).toEqual([]);
    });

    it("stays quiet without a store, and in a graph of envelope 1.3, which has no approval record", () => {
      expect(reasons(desk.accept(again(), { me: "booker" }))).toEqual([]);
      const older = createGraphAccept(checkedGraph(readFixture("guards", "redelegate-pending.seam").replace("envelope 1.4", "envelope 1.3")));
      const seen = createMemorySeenStore();
      const old: EnvelopeBase = { ...base, version: "1.3.0" };
      older.accept(hopEnvelope(old, walk.slice(0, 2), { constraints: ["Book refundable fares only"] }), { me: "booker", seen });
      older.accept(hopEnvelope(old, walk.slice(0, 3), { status: "waiting_review", artefacts: ARTEFACTS }), { me: "coordinator", seen });
      expect(reasons(older.accept(hopEnvelope(old, walk.slice(0, 4), { constraints: ["Book refundable fares only"] }), { me: "booker", seen }))).toEqual([]);
    });
  });

  describe("an approval leaving a gate with none pending", () => {
    const payouts = guardGraph("payout-pending");
    const base: EnvelopeBase = { version: "1.4.0", limit: payouts.hopLimit, roles: { desk: "supervisor", approver: "worker", payer: "worker" } };
    const pay = (cited: string) =>
      hopEnvelope(base, ["desk", "approver", "payer"], { status: "ready", decisions: [decision("amount", 0.95)], artefacts: ARTEFACTS, approval: approval(cited) });
    function delegated() {
      const seen = createMemorySeenStore();
      expect(payouts.accept(hopEnvelope(base, ["desk", "approver"], { constraints: ["Pay only approved invoices"] }), { me: "approver", seen }).ok).toBe(true);
      return seen;
    }

    it("refuses one that cites another handoff than the task's last accepted one", () => {
      expect(reasons(payouts.accept(pay(handoffId(9)), { me: "payer", seen: delegated() }))).toEqual([
        {
          path: "/approval/pending_handoff_id",
          rule: "approval-pending",
          message: `cites handoff "${handoffId(9)}", but task "task-0042" waits for no approval: an approval answers the handoff it follows, the task's last accepted handoff "${handoffId(1)}"`,
        },
      ]);
    });

    it("stays quiet for one that cites the handoff it follows", () => {
      expect(reasons(payouts.accept(pay(handoffId(1)), { me: "payer", seen: delegated() }))).toEqual([]);
    });
  });
});
