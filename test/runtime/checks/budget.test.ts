import { describe, expect, it } from "vitest";
import { BUDGET_COUNTERS } from "../../../src/runtime/checks/budget-exhausted.js";
import { createMemorySeenStore } from "../../../src/runtime/seen-store.js";
import { accept, delegate, NOW, reasons, returning } from "./helpers.js";

/** billing's return after triage's delegate (limit tokens 40000, tool_calls 20; consumed tokens 1200, tool_calls 2). */
function afterDelegate(edit: (e: Record<string, any>) => void) {
  const seen = createMemorySeenStore();
  expect(accept(delegate(), { me: "billing", seen, now: () => NOW }).ok).toBe(true);
  return accept(returning(edit), { me: "triage", seen, now: () => NOW });
}

describe("budgets across hops", () => {
  it("refuses a raised limit and a lowered consumed counter (budget-limit-raised, budget-consumed-decreased)", () => {
    const result = afterDelegate((e) => (e["budget"] = { limit: { tokens: 90000, tool_calls: 20 }, consumed: { tokens: 100, tool_calls: 2 } }));
    expect(reasons(result)).toEqual([
      { path: "/budget/limit/tokens", rule: "budget-limit-raised", message: "tokens: a limit of 90000 is above the task's limit of 40000, set by hop 1; a later hop may not raise it" },
      { path: "/budget/consumed/tokens", rule: "budget-consumed-decreased", message: "tokens: 100 consumed is less than the 1200 reported at hop 1; spend never goes backwards" },
    ]);
    expect(result.ok ? null : result.rejection.route).toBe("repair");
  });

  it("refuses a dropped limit and an omitted consumed counter", () => {
    const result = afterDelegate((e) => (e["budget"] = { limit: { tokens: 40000 }, consumed: { tokens: 1300 } }));
    expect(reasons(result)).toEqual([
      { path: "/budget/limit/tool_calls", rule: "budget-limit-raised", message: "tool_calls: no limit, but hop 1 of the task set a limit of 20; a later hop may not drop it" },
      { path: "/budget/consumed/tool_calls", rule: "budget-consumed-decreased", message: "tool_calls: not reported, but hop 1 reported 2 consumed; spend never goes backwards" },
    ]);
  });

  // The content check and the memory store read the counters by literal names (for speed):
  // every counter of the one list must be compared, each on its own.
  it.each(BUDGET_COUNTERS.map((c) => [c]))("compares %s across hops, limit and spend", (counter) => {
    const seen = createMemorySeenStore();
    const opening = delegate((e) => (e["budget"] = { limit: { [counter]: 10 }, consumed: { [counter]: 4 } }));
    expect(accept(opening, { me: "billing", seen, now: () => NOW }).ok).toBe(true);
    const result = accept(
      returning((e) => (e["budget"] = { limit: { [counter]: 11 }, consumed: { [counter]: 3 } })),
      { me: "triage", seen, now: () => NOW },
    );
    expect(reasons(result).map((r) => [r.path, r.rule])).toEqual([
      [`/budget/limit/${counter}`, "budget-limit-raised"],
      [`/budget/consumed/${counter}`, "budget-consumed-decreased"],
    ]);
  });

  it("stays quiet on a lowered limit and more spend", () => {
    expect(reasons(afterDelegate((e) => (e["budget"] = { limit: { tokens: 30000, tool_calls: 20 }, consumed: { tokens: 5000, tool_calls: 3 } })))).toEqual([]);
  });
});

describe("budget-counter-missing", () => {
  it("refuses a limited counter that consumed does not report", () => {
    expect(reasons(accept(delegate((e) => (e["budget"] = { limit: { tokens: 100, retries: 3 }, consumed: { tokens: 5 } })), { me: "billing" }))).toEqual([
      { path: "/budget/consumed/retries", rule: "budget-counter-missing", message: "retries has a limit of 3 but no consumed count: report every limited counter" },
    ]);
  });

  it("stays quiet when every limited counter is reported", () => {
    expect(reasons(accept(delegate((e) => (e["budget"] = { limit: { tokens: 100 }, consumed: { tokens: 5, retries: 1 } })), { me: "billing" }))).toEqual([]);
  });
});
