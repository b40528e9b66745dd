import { describe, expect, it } from "vitest";
import { ARTEFACTS, decision, guardGraph, hopEnvelope, type EnvelopeBase } from "./guard-helpers.js";
import { reasons } from "./helpers.js";

describe("confidence-below-floor", () => {
  const pricing = guardGraph("confidence-floor");
  const base: EnvelopeBase = { version: "1.3.0", limit: pricing.hopLimit, roles: { pricer: "peer", buyer: "peer", reviewer: "peer", archive: "peer" } };
  const transfer = (path: string[], decisions: Record<string, unknown>[]) => hopEnvelope(base, path, { status: "ready", artefacts: ARTEFACTS, decisions });

  it("refuses a price below the floor, naming the route the graph chooses below it", () => {
    const result = pricing.accept(transfer(["pricer", "buyer"], [decision("shipping", 0.95), decision("price", 0.6)]), { me: "buyer" });
    expect(result.ok ? null : result.rejection.route).toBe("repair");
    expect(reasons(result)).toEqual([
      {
        path: "/decisions/1/confidence",
        rule: "confidence-below-floor",
        message: 'decision "price" is 0.6 sure, below the floor of 0.8 on transfer pricer -> buyer; below the floor the graph routes it over transfer pricer -> reviewer otherwise',
      },
    ]);
  });

  it("lets the route the graph chooses take it: the otherwise gets what the floor refuses", () => {
    const result = pricing.accept(transfer(["pricer", "reviewer"], [decision("price", 0.6)]), { me: "reviewer" });
    expect(reasons(result)).toEqual([]);
  });

  it("stays quiet for decisions the floor does not name, and at the floor itself", () => {
    expect(reasons(pricing.accept(transfer(["pricer", "buyer"], [decision("shipping", 0.5), decision("price", 0.8)]), { me: "buyer" }))).toEqual([]);
  });

  it("escalates when no other route of the sender takes the envelope", () => {
    const result = pricing.accept(transfer(["pricer", "reviewer", "archive"], [decision("price", 0.85), decision("shipping", 0.7)]), { me: "archive" });
    expect(result.ok ? null : result.rejection.route).toBe("escalate");
    const why = "no other route out of reviewer takes it, so a person decides (escalate)";
    expect(reasons(result)).toEqual([
      { path: "/decisions/0/confidence", rule: "confidence-below-floor", message: `decision "price" is 0.85 sure, below the floor of 0.9 on transfer reviewer -> archive; ${why}` },
      { path: "/decisions/1/confidence", rule: "confidence-below-floor", message: `decision "shipping" is 0.7 sure, below the floor of 0.9 on transfer reviewer -> archive; ${why}` },
    ]);
  });
});
