/**
 * The guard rules, each where it fires (rule id, severity, whole range, exact message) and where
 * it stays quiet; the router without a default of langchain-ai/langgraph#6770 as a fixture.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkText } from "../../../src/analysis/check.js";
import { lines } from "./rule-table.js";

const GUARD_RULES = new Set(["guard-gap", "guard-overlap", "guard-unreachable"]);

/** The guard diagnostics of `code`: rule, severity, the text of the whole range, message. */
function guardFindings(code: string): [string, string, string, string][] {
  const result = checkText("g.seam", code);
  expect(result.diagnostics.filter((d) => d.rule === "syntax")).toEqual([]);
  return result.diagnostics.filter((d) => GUARD_RULES.has(d.rule)).map((d) => [d.rule, d.severity, code.slice(d.range.start, d.range.end), d.message]);
}

const pricing = (...routes: string[]) =>
  lines(
    "graph pricing {",
    "  entry lead",
    "  agent lead: supervisor { terminal done }",
    "  agent pricer: worker",
    "  agent auditor: supervisor { terminal checked }",
    "  delegate lead -> pricer { max_rounds 2 }",
    "  delegate auditor -> pricer { max_rounds 1 }",
    ...routes.map((r) => `  ${r}`),
    "}",
  );

describe("guard-gap", () => {
  it("reports the router without a default, listing the uncovered statuses", () => {
    const code = readFileSync(new URL("../../fixtures/guards/router-without-default.seam", import.meta.url), "utf8");
    const result = checkText("router.seam", code);
    expect(result.diagnostics.map((d) => [d.rule, d.severity, code.slice(d.range.start, d.range.end), d.message])).toEqual([
      [
        "guard-gap",
        "error",
        "when status is blocked",
        "the guarded edges out of billing leave no route for status waiting_review, failed: an envelope in that state has nowhere to go; add routes for what is missing, or an 'otherwise' edge",
      ],
    ]);
    expect(result.diagnostics[0]?.related?.map((r) => [r.message, code.slice(r.range.start, r.range.end)])).toEqual([
      ["route return billing -> triage", "when status is ready, partial"],
      ["route return billing -> review", "when status is blocked"],
    ]);
  });

  it("gives confidence ranges and merged statuses where several subjects are tested", () => {
    expect(guardFindings(pricing("return pricer -> lead when status is ready and confidence >= 0.8", "return pricer -> auditor when status is partial"))).toEqual([
      [
        "guard-gap",
        "error",
        "when status is partial",
        "the guarded edges out of pricer leave no route for status ready and confidence < 0.8; status blocked, waiting_review, failed: an envelope in that state has nowhere to go; add routes for what is missing, or an 'otherwise' edge",
      ],
    ]);
  });

  it("stays quiet with an otherwise edge, when every case is covered, and without guards", () => {
    expect(guardFindings(pricing("return pricer -> lead when status is ready", "return pricer -> auditor otherwise"))).toEqual([]);
    expect(guardFindings(pricing("return pricer -> lead when confidence >= 0.5", "return pricer -> auditor when confidence < 0.5"))).toEqual([]);
    expect(guardFindings(pricing("return pricer -> lead", "return pricer -> auditor"))).toEqual([]);
  });
});

describe("guard-overlap", () => {
  it("gives a state both guards match", () => {
    expect(guardFindings(pricing("return pricer -> lead when confidence >= 0.8", "return pricer -> auditor when status is ready", "transfer pricer -> lead otherwise"))).toEqual([
      [
        "guard-overlap",
        "warning",
        "when status is ready",
        "the guards of return pricer -> lead and return pricer -> auditor both match status ready and confidence 0.8: the earlier one is taken, so return pricer -> auditor only gets what is left; make the guards exclusive",
      ],
    ]);
  });

  it("stays quiet for exclusive guards", () => {
    expect(guardFindings(pricing("return pricer -> lead when status is ready", "return pricer -> auditor when status is partial, blocked, waiting_review, failed"))).toEqual([]);
  });
});

describe("guard-unreachable", () => {
  it("names a guard that never matches, one shadowed by an earlier route, and an otherwise with nothing left", () => {
    expect(guardFindings(pricing("return pricer -> lead when confidence > 0.9 and confidence < 0.5", "return pricer -> auditor otherwise"))).toEqual([
      ["guard-unreachable", "warning", "when confidence > 0.9 and confidence < 0.5", "the guard of return pricer -> lead matches no envelope: no state satisfies all its conditions; fix the conditions or remove the edge"],
    ]);
    expect(guardFindings(pricing("return pricer -> lead when confidence >= 0.5", "return pricer -> auditor when confidence >= 0.8"))).toEqual([
      [
        "guard-gap",
        "error",
        "when confidence >= 0.8",
        "the guarded edges out of pricer leave no route for confidence < 0.5: an envelope in that state has nowhere to go; add routes for what is missing, or an 'otherwise' edge",
      ],
      [
        "guard-unreachable",
        "warning",
        "when confidence >= 0.8",
        "return pricer -> auditor is never taken: every envelope its guard matches takes the earlier route return pricer -> lead first (e.g. confidence 0.8); routes are tried in order, so narrow the earlier guard or move this edge before it",
      ],
    ]);
    expect(guardFindings(pricing("return pricer -> lead when confidence >= 0.5", "return pricer -> auditor when confidence < 0.5", "transfer pricer -> lead otherwise"))).toEqual([
      ["guard-unreachable", "warning", "otherwise", "transfer pricer -> lead is never taken: the other guarded edges out of pricer already cover every case; remove 'otherwise' or the edge"],
    ]);
  });

  it("leaves a dead route out of reachability: an agent only it reaches is unreachable", () => {
    const code = pricing("return pricer -> lead when confidence > 0.9 and confidence < 0.5", "return pricer -> auditor otherwise").replace(
      "  delegate auditor -> pricer { max_rounds 1 }\n",
      "  delegate auditor -> pricer { max_rounds 1 }\n  agent late: supervisor { terminal t }\n  delegate late -> pricer { max_rounds 1 }\n  transfer pricer -> late when status is ready and status is failed\n",
    );
    const rules = checkText("g.seam", code).diagnostics.map((d) => d.rule);
    expect(rules).toContain("unreachable-agent");
  });

  it("stays quiet when every route takes something", () => {
    expect(guardFindings(pricing("return pricer -> lead when confidence >= 0.8", "return pricer -> auditor otherwise"))).toEqual([]);
  });
});

describe("the guard rules in a graph with syntax errors", () => {
  // A route lost to a syntax error would make a gap, and its neighbours' overlaps and shadows,
  // that the user did not write.
  const routes = (third: string) =>
    pricing("return pricer -> lead when status is ready and confidence >= 0.8", "return pricer -> auditor when confidence >= 0.9", third);

  it("wait until the syntax errors are fixed", () => {
    const code = routes("transfer pricer -> lead when confidence >= 1e-3");
    const result = checkText("g.seam", code);
    expect(result.diagnostics.some((d) => d.rule === "syntax")).toBe(true);
    expect(result.diagnostics.filter((d) => GUARD_RULES.has(d.rule))).toEqual([]);
  });

  it("judge the same routes once the file parses", () => {
    expect(guardFindings(routes("")).map(([rule]) => rule)).toEqual(["guard-gap", "guard-overlap"]);
  });
});

describe("the guard rules beside a guarded edge declared twice", () => {
  // The second declaration is dropped at binding, its guard with it: the router would lack its
  // otherwise route, and guard-gap would report a gap the file does not have.
  it("leave the router to duplicate-edge", () => {
    const code = pricing("return pricer -> lead when confidence >= 0.8", "return pricer -> lead otherwise");
    const rules = checkText("g.seam", code).diagnostics.map((d) => d.rule);
    expect(rules).toContain("duplicate-edge");
    expect(rules.filter((rule) => GUARD_RULES.has(rule))).toEqual([]);
  });

  it("still judge a router whose edges are each declared once", () => {
    expect(guardFindings(pricing("return pricer -> lead when confidence >= 0.8")).map(([rule]) => rule)).toEqual(["guard-gap"]);
  });
});
