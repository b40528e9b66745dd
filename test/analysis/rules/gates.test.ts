/** `ungated-effect` and `gate-needs-approval-envelope`: where each fires (id, severity, whole range, exact message) and stays quiet. */
import { describe, expect, it } from "vitest";
import { checkText } from "../../../src/analysis/check.js";
import { lines } from "./rule-table.js";

const RULES = new Set(["ungated-effect", "gate-needs-approval-envelope"]);

function findings(code: string): [string, string, string, string][] {
  const result = checkText("g.seam", code);
  expect(result.diagnostics.filter((d) => d.rule === "syntax")).toEqual([]);
  return result.diagnostics.filter((d) => RULES.has(d.rule)).map((d) => [d.rule, d.severity, code.slice(d.range.start, d.range.end), d.message]);
}

const payouts = (envelope: string, ...items: string[]) =>
  lines("graph payouts {", `  envelope ${envelope}`, "  entry desk", "  agent desk: supervisor { terminal done }", ...items.map((i) => `  ${i}`), "}");

describe("ungated-effect", () => {
  it("gives a walk from an entry to the effect that passes no gate", () => {
    expect(findings(payouts("1.4", 'agent payer: worker { effect "moves money" terminal paid }', "agent review: worker { gate }", "delegate desk -> review { max_rounds 1 }", "return review -> desk", "delegate desk -> payer { max_rounds 1 }"))).toEqual([
      ["ungated-effect", "warning", "payer", "agent payer (moves money) is reached without an approval gate: desk -> payer passes no gate; add `gate` to an agent or edge on that walk"],
    ]);
  });

  it("reports an entry with an effect: nothing can come before it", () => {
    expect(findings(lines("graph g {", "  entry payer", '  agent payer: peer { effect "moves money" terminal paid }', "}"))).toEqual([
      ["ungated-effect", "warning", "payer", "agent payer (moves money) is an entry: tasks reach its effect before any approval gate can; let a gate agent hand tasks to it instead"],
    ]);
  });

  it("stays quiet when every walk passes a gate agent or a gated edge, and for agents without an effect", () => {
    expect(findings(payouts("1.4", "agent review: worker { gate }", 'agent payer: worker { effect "moves money" terminal paid }', "delegate desk -> review { max_rounds 1 }", "transfer review -> payer"))).toEqual([]);
    expect(findings(payouts("1.4", 'agent payer: worker { effect "moves money" terminal paid }', "delegate desk -> payer { max_rounds 1 gate }"))).toEqual([]);
    expect(findings(payouts("1.4", "agent payer: worker { terminal paid }", "delegate desk -> payer { max_rounds 1 }"))).toEqual([]);
  });
});

describe("gate-needs-approval-envelope", () => {
  it("reports each gate of a graph older than envelope 1.4", () => {
    expect(findings(payouts("1.3", "agent review: worker { gate terminal ok }", "delegate desk -> review { max_rounds 1 gate }"))).toEqual([
      ["gate-needs-approval-envelope", "error", "gate", "an approval gate needs envelope 1.4, whose approval record says who approved, when and which handoff: this graph targets envelope 1.3; write `envelope 1.4`"],
      ["gate-needs-approval-envelope", "error", "gate", "an approval gate needs envelope 1.4, whose approval record says who approved, when and which handoff: this graph targets envelope 1.3; write `envelope 1.4`"],
    ]);
  });

  it("stays quiet on envelope 1.4", () => {
    expect(findings(payouts("1.4", "agent review: worker { gate terminal ok }", "delegate desk -> review { max_rounds 1 gate }"))).toEqual([]);
  });
});

describe("waiting_review never leaves a gate (guard-gap, guard-unreachable)", () => {
  const GUARD_RULES = new Set(["guard-gap", "guard-unreachable"]);
  const guardFindings = (code: string) =>
    checkText("g.seam", code)
      .diagnostics.filter((d) => GUARD_RULES.has(d.rule))
      .map((d) => [d.rule, d.severity, code.slice(d.range.start, d.range.end), d.message]);
  const reviewed = (gate: string, edgeGate: string, ...routes: string[]) =>
    payouts("1.4", `agent review: worker { ${gate} }`, "agent payer: worker { terminal paid }", "delegate desk -> review { max_rounds 2 }", ...routes.map((r) => r.replace("GATE", edgeGate)));

  it("reports a guard out of a gate agent that asks for waiting_review alone", () => {
    expect(guardFindings(reviewed("gate", "", "return review -> desk when status is waiting_review", "transfer review -> payer otherwise"))).toEqual([
      [
        "guard-unreachable",
        "warning",
        "when status is waiting_review",
        "the guard of return review -> desk matches no envelope: it asks for status waiting_review, which never leaves the approval gate review; what waits for review stays there until approved, so route it before the gate or remove the edge",
      ],
    ]);
  });

  it("reports a gated edge's guard on waiting_review alone, and lets the next route take that status", () => {
    expect(guardFindings(reviewed("", "gate", "transfer review -> payer when status is waiting_review { GATE }", "return review -> desk otherwise"))).toEqual([
      [
        "guard-unreachable",
        "warning",
        "when status is waiting_review",
        "the guard of transfer review -> payer matches no envelope: it asks for status waiting_review, which never leaves an edge marked gate; what waits for review stays there until approved, so route it before the gate or remove the edge",
      ],
    ]);
  });

  it("stays quiet for a gate agent's router that covers every status but waiting_review", () => {
    expect(guardFindings(reviewed("gate", "", "transfer review -> payer when status is ready", "return review -> desk when status is partial, blocked, failed"))).toEqual([]);
  });

  it("still finds the gap without the gate", () => {
    expect(guardFindings(reviewed("terminal kept", "", "transfer review -> payer when status is ready", "return review -> desk when status is partial, blocked, failed"))).toEqual([
      [
        "guard-gap",
        "error",
        "when status is partial, blocked, failed",
        "the guarded edges out of review leave no route for status waiting_review: an envelope in that state has nowhere to go; add routes for what is missing, or an 'otherwise' edge",
      ],
    ]);
  });
});
