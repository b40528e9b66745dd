import { describe, expect, it } from "vitest";
import { accept, reasons, returning } from "./helpers.js";

const question = [{ question: "Refund to the card or as credit?", blocking: true }];

describe("blocking-question", () => {
  it("accepts a blocked or waiting hand-back with the blocking question it waits on, with its route", () => {
    for (const [status, route] of [
      ["blocked", "human_input"],
      ["waiting_review", "approval"],
    ] as const) {
      const result = accept(returning((e) => ((e["status"] = status), (e["open_questions"] = question))), { me: "triage" });
      expect(result.ok ? result.record.route : result.rejection.reasons).toBe(route);
    }
  });

  it("refuses a ready or partial envelope with a blocking question", () => {
    for (const status of ["ready", "partial"]) {
      expect(reasons(accept(returning((e) => ((e["status"] = status), (e["open_questions"] = question))), { me: "triage" }))).toEqual([
        { path: "/open_questions/0/blocking", rule: "blocking-question", message: 'unresolved: "Refund to the card or as credit?"' },
      ]);
    }
  });
});
