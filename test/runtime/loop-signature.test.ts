import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createLoopDetector } from "../../src/runtime/loop-detector.js";
import { createLoopSignature } from "../../src/runtime/loop-signature.js";

const decision = (id: string, statement: string) => ({ id, statement, rationale: "r", confidence: 1, reversible: true });
const envelope = (decisions: unknown[], extra: Record<string, unknown> = {}) => ({
  task_id: "t1",
  to_agent: { id: "a", role: "worker" },
  goal: { statement: "Refund order 7731", acceptance_criteria: ["x"] },
  decisions,
  ...extra,
});

describe("loopSignature", () => {
  const signature = createLoopSignature(["goal.statement", "decisions[].statement"]);

  it("hashes the RFC 8785 canonical JSON of the named fields with SHA-256", () => {
    const text = '{"decisions[].statement":["a","b"],"goal.statement":"Refund order 7731"}';
    const expected = `sha256:${createHash("sha256").update(text).digest("hex")}`;
    expect(signature(envelope([decision("1", "b"), decision("2", "a")]))).toBe(expected);
  });

  it("takes array paths as sets: order and repeats do not change the hash", () => {
    const one = signature(envelope([decision("1", "a"), decision("2", "b")]));
    expect(signature(envelope([decision("2", "b"), decision("1", "a"), decision("3", "a")]))).toBe(one);
    expect(signature(envelope([decision("1", "a")]))).not.toBe(one);
  });

  it("ignores fields it does not name, and tells a missing field from an empty one", () => {
    const one = signature(envelope([]));
    expect(signature(envelope([], { constraints: ["new"] }))).toBe(one);
    const digest = createLoopSignature(["artefacts[].digest", "status"]);
    expect(digest({})).toBe(`sha256:${createHash("sha256").update('{"artefacts[].digest":[]}').digest("hex")}`);
    expect(digest({ status: "ready" })).not.toBe(digest({}));
  });

  it("canonicalises object values (key order does not matter)", () => {
    const goal = createLoopSignature(["goal"]);
    expect(goal({ goal: { b: 1, a: [1, 2] } })).toBe(goal({ goal: { a: [1, 2], b: 1 } }));
  });

  it("accepts any input without a named field", () => {
    for (const input of [null, 1, "x", [], undefined]) expect(signature(input)).toMatch(/^sha256:[a-f0-9]{64}$/);
  });

  it("throws for values RFC 8785 cannot encode (a cycle)", () => {
    const goal: Record<string, unknown> = {};
    goal["self"] = goal;
    expect(() => createLoopSignature(["goal"])({ goal })).toThrow();
  });
});

describe("LoopDetector", () => {
  const signature = createLoopSignature(["goal.statement", "decisions[].statement"]);

  it("reports an agent that receives a state it already received for the task", () => {
    const detector = createLoopDetector(signature);
    const first = envelope([decision("1", "a")]);
    expect(detector.observe(first)?.loop).toBe(false);
    expect(detector.observe({ ...first, to_agent: { id: "b", role: "worker" } })?.loop).toBe(false);
    expect(detector.observe(envelope([decision("9", "a")]))?.loop).toBe(true);
    expect(detector.observe(envelope([decision("1", "a"), decision("2", "new")]))?.loop).toBe(false);
    expect(detector.observe({ ...first, task_id: "t2" })?.loop).toBe(false);
  });

  it("treats the branches of one task apart: two branches reaching one agent in one state are no loop, one branch reaching it twice is", () => {
    const detector = createLoopDetector(signature);
    const arrival = (branch: string) => envelope([decision("1", "a")], { hop: { index: 2, limit: 9, branch } });
    expect(detector.observe(arrival("bids/pricing"))?.loop).toBe(false);
    expect(detector.observe(arrival("bids/legal"))?.loop).toBe(false);
    expect(detector.observe(arrival("bids/pricing"))?.loop).toBe(true);
    // Outside any branch the same state again is a loop, as before.
    expect(detector.observe(envelope([decision("1", "a")]))?.loop).toBe(false);
    expect(detector.observe(envelope([decision("1", "a")]))?.loop).toBe(true);
  });

  it("forgets a finished task and skips envelopes without task or receiver", () => {
    const detector = createLoopDetector(signature);
    detector.observe(envelope([]));
    detector.forget("t1");
    expect(detector.observe(envelope([]))?.loop).toBe(false);
    expect(detector.observe({ task_id: 1 })).toBeUndefined();
    expect(detector.observe(null)).toBeUndefined();
  });

  it("forgets the task observed least recently past maxTasks, and keeps a bounded number of signatures", () => {
    const detector = createLoopDetector(signature, { maxTasks: 2, maxSignaturesPerTask: 2 });
    const t1 = envelope([]);
    detector.observe(t1);
    detector.observe({ ...t1, task_id: "t2" });
    // Within the bound: t1 is still remembered (and becomes the most recent).
    expect(detector.observe(t1)?.loop).toBe(true);
    detector.observe({ ...t1, task_id: "t3" });
    // t2 was observed least recently: forgotten, so its repeat is no loop.
    expect(detector.observe({ ...t1, task_id: "t2" })?.loop).toBe(false);
    expect(detector.observe({ ...t1, task_id: "t3" })?.loop).toBe(true);
    const many = createLoopDetector(signature, { maxSignaturesPerTask: 2 });
    for (const id of ["1", "2", "3"]) many.observe(envelope([decision(id, id)]));
    expect(many.observe(envelope([decision("2", "2")]))?.loop).toBe(true);
    // The third signature was past the bound: checked, not kept.
    expect(many.observe(envelope([decision("3", "3")]))?.loop).toBe(false);
    expect(() => createLoopDetector(signature, { maxTasks: 0 })).toThrow(new TypeError("createLoopDetector: options.maxTasks must be a positive whole number, not 0"));
  });
});
