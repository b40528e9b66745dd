/**
 * The calling service's mistakes throw at once (a TypeError saying what to do); a producer's bad
 * envelope never throws. And only JSON data is read: own properties, finite numbers, Unicode text.
 */
import { describe, expect, it } from "vitest";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import type { AcceptOptions, AcceptResult } from "../../src/runtime/accept.js";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";
import { clone, readJsonFixture, refundDesk } from "../emit/helpers.js";

type Envelope = Record<string, any>;

const { accept, acceptAsync } = createGraphAccept(refundDesk());
const base = readJsonFixture("cases", "envelopes", "valid-delegate.json") as Envelope;
const withRequired = (): Envelope => ({
  ...clone(base),
  artefacts: [{ ref: "artefact://refund/ledger", media_type: "application/json", role: "required" }],
});

function reasonsOf(result: AcceptResult): [string, string][] {
  return result.ok ? [] : result.rejection.reasons.map((r) => [r.path, r.rule]);
}

describe("accept: misuse by the calling service is a TypeError", () => {
  const cases: [string, () => unknown, string][] = [
    ["no options", () => (accept as (e: unknown) => AcceptResult)(base), 'accept(envelope, options): options must be an object naming the receiving agent, such as { me: "triage" }'],
    ["me missing", () => accept(base, {} as AcceptOptions), "accept(envelope, options): options.me must be the receiving agent's id, a non-empty string"],
    ["me empty", () => accept(base, { me: "" }), "accept(envelope, options): options.me must be the receiving agent's id, a non-empty string"],
    ["me not an agent", () => accept(base, { me: "biling" }), 'accept(envelope, options): options.me "biling" is no agent of graph refund_desk; use one of triage, billing, refunds, notifier'],
    ["a misspelt option", () => accept(base, { me: "billing", seenStore: {} } as AcceptOptions), 'accept(envelope, options): unknown option "seenStore"; the options are me, sender, canRead, seen, now and claimToken'],
    ["canRead not a function", () => accept(base, { me: "billing", canRead: true } as unknown as AcceptOptions), "accept(envelope, options): options.canRead must be a function (ref, scope) => boolean"],
    ["a store without claim", () => accept(base, { me: "billing", seen: {} } as unknown as AcceptOptions), "accept(envelope, options): options.seen must be a store with a claim(request) method, such as createMemorySeenStore()"],
    ["now not a function", () => accept(base, { me: "billing", now: 5 } as unknown as AcceptOptions), "accept(envelope, options): options.now must be a function returning ms since the Unix epoch"],
    ["now returning a string", () => accept(base, { me: "billing", now: () => "today" } as unknown as AcceptOptions), "accept(envelope, options): options.now() must return a number of ms since the Unix epoch"],
    [
      "an async canRead",
      () => accept(withRequired(), { me: "billing", canRead: (async () => true) as unknown as () => boolean }),
      "accept(envelope, options): options.canRead is an async function: use acceptAsync, which awaits it",
    ],
    [
      "a canRead returning a promise",
      () => accept(withRequired(), { me: "billing", canRead: (() => Promise.resolve(true)) as unknown as () => boolean }),
      "accept(envelope, options): options.canRead returned a promise: use acceptAsync, which awaits it",
    ],
    [
      "an asynchronous store",
      () => accept(base, { me: "billing", seen: { claim: async () => ({ outcome: "claimed" as const }) } as never }),
      "accept(envelope, options): options.seen.claim returned a promise: use acceptAsync with an asynchronous store",
    ],
  ];
  it.each(cases)("%s", (_name, call, message) => {
    expect(call).toThrow(new TypeError(message));
  });

  it("throws a RangeError for a time Date cannot hold", () => {
    expect(() => accept(base, { me: "billing", now: () => Number.NaN })).toThrow(
      new RangeError("accept(envelope, options): options.now() returned NaN, outside the range of Date"),
    );
    expect(() => accept(base, { me: "billing", now: () => 8.64e15 + 1 })).toThrow(RangeError);
  });

  it("stays quiet for correct options, and never throws on a bad envelope", () => {
    expect(accept(base, { me: "billing", canRead: () => true, seen: createMemorySeenStore(), now: () => 0 }).ok).toBe(true);
    expect(() => accept({ goal: 1 }, { me: "billing" })).not.toThrow();
  });

  it("rejects the same misuse from acceptAsync", async () => {
    await expect((acceptAsync as (e: unknown) => Promise<AcceptResult>)(base)).rejects.toThrow(
      new TypeError('acceptAsync(envelope, options): options must be an object naming the receiving agent, such as { me: "triage" }'),
    );
  });
});

describe("acceptAsync", () => {
  it("awaits canRead, asking about every required artefact at once", async () => {
    const envelope = withRequired();
    envelope["artefacts"].push({ ref: "artefact://refund/trace", media_type: "text/plain", role: "required" });
    const pending: string[] = [];
    const canRead = (ref: string): Promise<boolean> => {
      pending.push(ref);
      return new Promise((resolve) => setTimeout(() => resolve(ref.endsWith("ledger")), 1));
    };
    const result = await acceptAsync(envelope, { me: "billing", canRead });
    expect(pending).toEqual(["artefact://refund/ledger", "artefact://refund/trace"]);
    expect(reasonsOf(result)).toEqual([["/artefacts/1/ref", "artefact-unreadable"]]);
  });

  it("claims through an asynchronous store in one call per delivery", async () => {
    const memory = createMemorySeenStore();
    const requests: unknown[] = [];
    const remote = {
      claim: async (request: Parameters<typeof memory.claim>[0]) => {
        requests.push(request);
        return memory.claim(request);
      },
    };
    expect((await acceptAsync(base, { me: "billing", seen: remote, now: () => 1000 })).ok).toBe(true);
    expect(await acceptAsync(base, { me: "billing", seen: remote, now: () => 2000 })).toMatchObject({ ok: false, duplicate: true });
    expect(requests).toEqual([
      {
        handoffId: base["handoff_id"],
        taskId: base["task_id"],
        hopIndex: 1,
        producer: "triage",
        receiver: "billing",
        edge: { kind: "delegate", from: "triage", to: "billing" },
        verdict: "accepted",
        at: 1000,
        path: ["triage", "billing"],
        budget: { limit: { tokens: 40000, tool_calls: 20 }, consumed: { tokens: 1200, tool_calls: 2 } },
        branch: null,
        token: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        // The delivered envelope, for a store that leases claims to fingerprint.
        envelope: base,
        // An envelope 1.3 graph keeps no approvals.
        approval: null,
      },
      expect.objectContaining({ at: 2000, verdict: "accepted" }),
    ]);
  });

  it("sends a rejection to the store as such, and nothing without a usable header", async () => {
    const requests: { verdict: string }[] = [];
    const seen = { claim: async (request: { verdict: string }) => (requests.push(request), { outcome: "noted" as const }) };
    await acceptAsync({ ...clone(base), payload: 1 }, { me: "billing", seen });
    await acceptAsync({ ...clone(base), task_id: 7 }, { me: "billing", seen });
    expect(requests.map((r) => r.verdict)).toEqual(["rejected"]);
  });

  it("rejects with what canRead or the store rejects with", async () => {
    await expect(acceptAsync(withRequired(), { me: "billing", canRead: async () => Promise.reject(new Error("s3 down")) })).rejects.toThrow("s3 down");
    await expect(acceptAsync(base, { me: "billing", seen: { claim: async () => Promise.reject(new Error("redis down")) } })).rejects.toThrow("redis down");
  });

  it("decides like accept", async () => {
    const bad = { ...clone(base), payload: 1, envelope_version: "2.0.0" };
    expect(await acceptAsync(bad, { me: "billing", now: () => 0 })).toEqual(accept(bad, { me: "billing", now: () => 0 }));
  });
});

describe("accept reads JSON data only", () => {
  const at = (edit: (e: Envelope) => void): Envelope => {
    const e = clone(base);
    edit(e);
    return e;
  };
  const cyclic = at((e) => (e["goal"]["self"] = e["goal"]));
  const cases: [string, unknown, [string, string][]][] = [
    ["an envelope inheriting a valid one (Object.create)", Object.create(base), [["", "not-json-data"]]],
    ["a field inheriting its properties", at((e) => (e["goal"] = Object.create(e["goal"]))), [["/goal", "not-json-data"]]],
    ["NaN", at((e) => (e["budget"]["consumed"]["tokens"] = Number.NaN)), [["/budget/consumed/tokens", "not-json-data"], ["/budget/consumed/tokens", "type"]]],
    ["Infinity", at((e) => (e["budget"]["consumed"]["tokens"] = Infinity)), [["/budget/consumed/tokens", "not-json-data"], ["/budget/consumed/tokens", "type"]]],
    ["a function", at((e) => (e["goal"]["statement"] = () => "x")), [["/goal/statement", "not-json-data"], ["/goal/statement", "type"]]],
    ["a bigint", at((e) => (e["hop"]["index"] = 1n)), [["/hop/index", "not-json-data"], ["/hop/index", "type"]]],
    ["a hole in an array", at((e) => (e["constraints"] = [, "x"])), [["/constraints/0", "not-json-data"], ["/constraints/0", "type"]]],
    ["a cycle", cyclic, [["/goal/self", "not-json-data"], ["/goal/self", "additional-property"]]],
  ];
  it.each(cases)("refuses %s at its pointer", (_name, envelope, reasons) => {
    expect(reasonsOf(accept(envelope, { me: "billing" })).sort()).toEqual(reasons.sort());
  });

  it("refuses nesting deeper than 64 levels without overflowing the stack", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const result = accept(at((e) => (e["payload"] = deep)), { me: "billing" });
    expect(reasonsOf(result)).toEqual([
      [`/payload${"/0".repeat(63)}`, "not-json-data"],
      ["/payload", "additional-property"],
    ]);
  });

  it("walks a value sharing its parts in bounded time", () => {
    let blowup: unknown = "leaf";
    for (let i = 0; i < 40; i++) blowup = { a: blowup, b: blowup };
    const result = accept(at((e) => (e["goal"]["statement"] = blowup)), { me: "billing" });
    expect(!result.ok && result.rejection.reasons.some((r) => r.rule === "not-json-data" && r.message === "is past the 5000000 values an envelope may hold (shared parts are counted each time)")).toBe(true);
  });

  it("lists at most 20 such problems", () => {
    const result = accept(at((e) => (e["constraints"] = Array.from({ length: 1000 }, () => Number.NaN))), { me: "billing" });
    expect(reasonsOf(result).filter(([, rule]) => rule === "not-json-data")).toHaveLength(20);
  });

  it("stays quiet for what JSON.parse returns, null-prototype objects, class instances and undefined (absent, as JSON.stringify has it), and shared parts (a tree once written)", () => {
    class Goal {
      statement = "x";
      acceptance_criteria = ["y"];
    }
    expect(accept(at((e) => (e["goal"] = new Goal())), { me: "billing" }).ok).toBe(true);
    expect(accept(at((e) => (e["status"] = undefined)), { me: "billing" }).ok).toBe(true);
    const shared = ["Read-only"];
    expect(accept(at((e) => ((e["constraints"] = shared), (e["goal"]["out_of_scope"] = shared))), { me: "billing" }).ok).toBe(true);
    expect(accept(JSON.parse(JSON.stringify(base)), { me: "billing" }).ok).toBe(true);
    const bare = Object.assign(Object.create(null) as Envelope, clone(base));
    expect(accept(bare, { me: "billing" }).ok).toBe(true);
  });
});

describe("many faults in one envelope", () => {
  it("lists 20 of 50,000 faulty hop.path entries, then one reason counting the rest", () => {
    const envelope = clone(base);
    envelope["hop"] = { ...(envelope["hop"] as object), path: Array.from({ length: 50_000 }, () => null) };
    const result = accept(envelope, { me: "billing" });
    expect(result.ok).toBe(false);
    const typeErrors = result.ok ? [] : result.rejection.reasons.filter((r) => r.path.startsWith("/hop/path/") && r.rule === "type");
    expect(typeErrors.map((r) => r.path)).toEqual([...Array.from({ length: 20 }, (_, i) => `/hop/path/${i}`), "/hop/path/20"]);
    expect(typeErrors[20]?.message).toBe("and 49980 more type reasons, not listed (a verdict lists at most 20 per rule)");
  });
});
