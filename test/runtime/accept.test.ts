import { describe, expect, it } from "vitest";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import type { AcceptOptions, AcceptResult } from "../../src/runtime/accept.js";
import { SEMANTIC_RULES } from "../../src/runtime/reason.js";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";
import { checkedGraph, clone, readJsonFixture, refundDesk } from "../emit/helpers.js";

type Envelope = Record<string, any>;

const accept = createGraphAccept(refundDesk()).accept;
const base = readJsonFixture("cases", "envelopes", "valid-delegate.json") as Envelope;
const FIXED_NOW = Date.UTC(2026, 10, 29, 10, 5, 0);

function variant(edit: (e: Envelope) => void): Envelope {
  const e = clone(base);
  edit(e);
  return e;
}

/** billing -> triage, a return edge (requires status, artefacts, provenance). */
function returning(edit: (e: Envelope) => void = () => {}): Envelope {
  return variant((e) => {
    e["handoff_id"] = "5d0e7a21-3c4b-4f8a-b1d2-9e6f0a7c3b54";
    e["hop"] = { index: 2, limit: 8, path: ["triage", "billing", "triage"] };
    e["from_agent"] = { id: "billing", role: "worker", version: "2.0.0" };
    e["to_agent"] = { id: "triage", role: "supervisor" };
    e["status"] = "ready";
    e["artefacts"] = [
      { ref: "artefact://refund/ledger-extract", media_type: "application/json", role: "required" },
      { ref: "artefact://refund/old-extract", media_type: "application/json", role: "superseded" },
      { ref: "artefact://refund/trace", media_type: "text/plain", role: "supporting" },
    ];
    edit(e);
  });
}

function reasonsOf(result: AcceptResult): { path: string; rule: string }[] {
  if (result.ok) return [];
  return result.rejection.reasons.map(({ path, rule }) => ({ path, rule }));
}

const asBilling: AcceptOptions = { me: "billing", now: () => FIXED_NOW };

describe("accept: a valid envelope", () => {
  it("is accepted with an acceptance record", () => {
    const result = accept(base, asBilling);
    expect(result).toEqual({
      ok: true,
      duplicate: false,
      record: {
        handoff_id: "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39",
        task_id: "refund-2026-11-0042",
        hop_index: 1,
        producer: "triage",
        receiver: "billing",
        accepted_at: "2026-11-29T10:05:00.000Z",
        artefacts_consumed: [],
        route: "proceed",
        constraints: ["Read-only access to the ledger"],
        warnings: [],
        lease: null,
      },
    });
  });

  it("lists the artefacts consumed, leaving superseded ones out", () => {
    const result = accept(returning(), { me: "triage" });
    expect(result.ok && result.record.artefacts_consumed).toEqual(["artefact://refund/ledger-extract", "artefact://refund/trace"]);
  });

  it.each([
    ["ready", "proceed"],
    ["partial", "proceed"],
    ["blocked", "human_input"],
    ["waiting_review", "approval"],
    ["failed", "failed"],
  ])("routes status %s to %s", (status, route) => {
    const result = accept(returning((e) => (e["status"] = status)), { me: "triage" });
    expect(result.ok && result.record.route).toBe(route);
  });

  it("routes an envelope without status to proceed", () => {
    const result = accept(base, asBilling);
    expect(result.ok && result.record.route).toBe("proceed");
  });

  it("asks canRead about required artefacts only, with their read_scope", () => {
    const asked: [string, string | undefined][] = [];
    const envelope = returning((e) => {
      e["artefacts"][0]["read_scope"] = "ledger.read";
    });
    const result = accept(envelope, { me: "triage", canRead: (ref, scope) => (asked.push([ref, scope]), true) });
    expect(result.ok).toBe(true);
    expect(asked).toEqual([["artefact://refund/ledger-extract", "ledger.read"]]);
  });
});

describe("accept: each rejection reason alone", () => {
  const cases: { name: string; envelope: Envelope; options?: AcceptOptions; reasons: { path: string; rule: string }[] }[] = [
    { name: "type (no coercion)", envelope: variant((e) => (e["hop"]["index"] = "1")), reasons: [{ path: "/hop/index", rule: "type" }] },
    {
      name: "type of a boolean given as a string",
      envelope: variant((e) => (e["open_questions"] = [{ question: "which order?", blocking: "false" }])),
      reasons: [{ path: "/open_questions/0/blocking", rule: "type" }],
    },
    { name: "required (the edge contract)", envelope: variant((e) => delete e["constraints"]), reasons: [{ path: "/constraints", rule: "required" }] },
    { name: "required (the envelope)", envelope: variant((e) => delete e["goal"]["statement"]), reasons: [{ path: "/goal/statement", rule: "required" }] },
    { name: "required hop.path", envelope: variant((e) => delete e["hop"]["path"]), reasons: [{ path: "/hop/path", rule: "required" }] },
    { name: "additional-property", envelope: variant((e) => (e["payload"] = { order: 7731 })), reasons: [{ path: "/payload", rule: "additional-property" }] },
    {
      name: "additional-property, nested, with a pointer-escaped name",
      envelope: variant((e) => (e["goal"]["a/b~c"] = 1)),
      reasons: [{ path: "/goal/a~1b~0c", rule: "additional-property" }],
    },
    { name: "enum", envelope: variant((e) => (e["status"] = "done")), reasons: [{ path: "/status", rule: "enum" }] },
    { name: "format", envelope: variant((e) => (e["handoff_id"] = "not-a-uuid")), reasons: [{ path: "/handoff_id", rule: "format" }] },
    { name: "pattern", envelope: variant((e) => (e["envelope_version"] = "1.3")), reasons: [{ path: "/envelope_version", rule: "pattern" }] },
    { name: "minimum", envelope: variant((e) => (e["budget"]["consumed"]["tokens"] = -1)), reasons: [{ path: "/budget/consumed/tokens", rule: "minimum" }] },
    { name: "maximum (hop.limit above the graph's)", envelope: variant((e) => (e["hop"]["limit"] = 9)), reasons: [{ path: "/hop/limit", rule: "maximum" }] },
    {
      name: "maximum (hop.index past 2^53 - 1)",
      envelope: variant((e) => (e["hop"]["index"] = 1e308)),
      reasons: [
        { path: "/hop/index", rule: "maximum" },
        { path: "/hop/index", rule: "hop-limit-reached" },
      ],
    },
    {
      name: "maximum (a budget counter past 2^53 - 1)",
      envelope: variant((e) => (e["budget"]["consumed"]["tokens"] = 2 ** 53)),
      reasons: [{ path: "/budget/consumed/tokens", rule: "maximum" }],
    },
    {
      name: "maximum (an artefact's byte_size past 2^53 - 1)",
      envelope: variant((e) => (e["artefacts"] = [{ ref: "artefact://x", media_type: "text/plain", role: "supporting", byte_size: 1e23 }])),
      reasons: [{ path: "/artefacts/0/byte_size", rule: "maximum" }],
    },
    {
      name: "min-items",
      envelope: variant((e) => (e["goal"]["acceptance_criteria"] = [])),
      reasons: [{ path: "/goal/acceptance_criteria", rule: "min-items" }],
    },
    { name: "version-major", envelope: variant((e) => (e["envelope_version"] = "2.0.0")), reasons: [{ path: "/envelope_version", rule: "version-major" }] },
    { name: "not-addressed-to-me", envelope: base, options: { me: "refunds" }, reasons: [{ path: "/to_agent/id", rule: "not-addressed-to-me" }] },
    { name: "hop-limit-reached", envelope: variant((e) => (e["hop"]["limit"] = 1)), reasons: [{ path: "/hop/index", rule: "hop-limit-reached" }] },
    {
      name: "budget-exhausted",
      envelope: variant((e) => (e["budget"]["consumed"]["tokens"] = 40000)),
      reasons: [{ path: "/budget/consumed/tokens", rule: "budget-exhausted" }],
    },
    {
      name: "artefact-unreadable",
      envelope: variant((e) => (e["artefacts"] = [{ ref: "artefact://refund/ledger", media_type: "application/json", role: "required" }])),
      options: { me: "billing", canRead: () => false },
      reasons: [{ path: "/artefacts/0/ref", rule: "artefact-unreadable" }],
    },
    {
      name: "blocking-question",
      envelope: variant((e) => (e["open_questions"] = [{ question: "which card?", blocking: false }, { question: "which order?", blocking: true }])),
      reasons: [{ path: "/open_questions/1/blocking", rule: "blocking-question" }],
    },
    {
      name: "unknown-edge (no such edge)",
      envelope: variant((e) => {
        e["from_agent"] = { id: "billing", role: "worker" };
        e["to_agent"] = { id: "refunds", role: "worker" };
        e["hop"] = { index: 2, limit: 8, path: ["triage", "billing", "refunds"] };
      }),
      options: { me: "refunds" },
      reasons: [{ path: "/to_agent/id", rule: "unknown-edge" }],
    },
    {
      name: "unknown-edge (no such agent)",
      envelope: variant((e) => (e["from_agent"] = { id: "ghost", role: "supervisor" })),
      reasons: [{ path: "/from_agent/id", rule: "unknown-edge" }],
    },
    { name: "role-mismatch", envelope: variant((e) => (e["from_agent"]["role"] = "worker")), reasons: [{ path: "/from_agent/role", rule: "role-mismatch" }] },
    {
      name: "bad-hop-path (length)",
      envelope: variant((e) => (e["hop"]["path"] = ["triage", "billing", "triage", "billing"])),
      reasons: [{ path: "/hop/path", rule: "bad-hop-path" }],
    },
    {
      name: "bad-hop-path (does not end in this handoff)",
      envelope: variant((e) => {
        e["hop"] = { index: 2, limit: 8, path: ["triage", "refunds", "notifier"] };
      }),
      reasons: [{ path: "/hop/path/2", rule: "bad-hop-path" }],
    },
    {
      name: "bad-hop-path (not an entry first)",
      envelope: returning((e) => (e["hop"]["path"] = ["billing", "billing", "triage"])),
      options: { me: "triage" },
      reasons: [
        { path: "/hop/path/0", rule: "bad-hop-path" },
        { path: "/hop/path/1", rule: "bad-hop-path" },
      ],
    },
    {
      name: "max-rounds-exceeded",
      envelope: variant((e) => {
        e["hop"] = { index: 5, limit: 8, path: ["triage", "billing", "triage", "billing", "triage", "billing"] };
      }),
      reasons: [{ path: "/hop/path/5", rule: "max-rounds-exceeded" }],
    },
  ];

  it.each(cases)("$name", ({ envelope, options, reasons }) => {
    const result = accept(envelope, options ?? asBilling);
    expect(result.ok).toBe(false);
    expect(result.duplicate).toBe(false);
    expect(reasonsOf(result)).toEqual(reasons);
  });

  it("takes a hop.index too large to count exactly as past the hop limit (route on_hop_limit), beside the schema's bound", () => {
    for (const index of [1e308, 1e23, Number.MAX_SAFE_INTEGER + 1]) {
      const result = accept(variant((e) => (e["hop"]["index"] = index)), asBilling);
      expect(!result.ok && result.rejection.route).toBe("escalate");
      expect(!result.ok && result.rejection.reasons.map((r) => [r.path, r.rule, r.message])).toEqual([
        ["/hop/index", "maximum", `must be at most ${Number.MAX_SAFE_INTEGER}`],
        ["/hop/index", "hop-limit-reached", `hop ${String(index)} is at or past the limit of graph refund_desk, 8: escalate to a human, do not forward`],
      ]);
    }
    // The largest exact integer is in range (the schema passes; it is the hop limit that refuses it).
    const largest = accept(variant((e) => (e["hop"]["index"] = Number.MAX_SAFE_INTEGER)), asBilling);
    expect(reasonsOf(largest).map((r) => r.rule)).not.toContain("maximum");
    expect(!largest.ok && largest.rejection.route).toBe("escalate");
    // A fraction is no hop count: the schema refuses it and it goes back for repair.
    const fraction = accept(variant((e) => (e["hop"]["index"] = 2.5)), asBilling);
    expect(reasonsOf(fraction).map((r) => r.rule)).not.toContain("hop-limit-reached");
    expect(!fraction.ok && fraction.rejection.route).toBe("repair");
  });

  it("words the round count of max-rounds-exceeded as an English ordinal", () => {
    const result = accept(
      variant((e) => {
        e["hop"] = { index: 5, limit: 8, path: ["triage", "billing", "triage", "billing", "triage", "billing"] };
      }),
      asBilling,
    );
    expect(!result.ok && result.rejection.reasons.map((r) => r.message)).toEqual([
      "takes triage -> billing for the 3rd time, but max_rounds allows 2",
    ]);
  });

  it("gives every reason a message and the rejection its header", () => {
    const result = accept(variant((e) => (e["budget"]["consumed"]["tool_calls"] = 20)), asBilling);
    expect(result).toMatchObject({
      ok: false,
      rejection: { handoff_id: base["handoff_id"], hop_index: 1, producer: "triage", route: "repair" },
    });
    if (!result.ok) expect(result.rejection.reasons[0]?.message).toMatch(/tool_calls: 20 consumed of a limit of 20/);
  });

  it("routes a rejection at the hop limit as the graph's on_hop_limit says", () => {
    const result = accept(variant((e) => (e["hop"]["limit"] = 1)), asBilling);
    expect(!result.ok && result.rejection.route).toBe("escalate");
    const failing = createGraphAccept(
      checkedGraph(`graph g { entry a on_hop_limit failed agent a: supervisor { terminal done } agent b: worker
        delegate a -> b { max_rounds 1 }
        return b -> a }`),
    ).accept;
    const envelope = variant((e) => {
      e["hop"] = { index: 1, limit: 1, path: ["a", "b"] };
      e["from_agent"] = { id: "a", role: "supervisor" };
      e["to_agent"] = { id: "b", role: "worker" };
    });
    const refused = failing(envelope, { me: "b" });
    expect(reasonsOf(refused)).toEqual([{ path: "/hop/index", rule: "hop-limit-reached" }]);
    expect(!refused.ok && refused.rejection.route).toBe("failed");
  });

  it("documents every semantic rule it can report", () => {
    const reported = new Set(cases.flatMap((c) => c.reasons.map((r) => r.rule)));
    for (const rule of reported) {
      if (!["type", "required", "additional-property", "enum", "format", "pattern", "minimum", "maximum", "min-items"].includes(rule)) {
        expect(Object.keys(SEMANTIC_RULES)).toContain(rule);
      }
    }
  });
});

describe("accept: canRead", () => {
  it("throws what canRead throws: an artefact store that cannot answer is not the producer's fault", () => {
    const envelope = variant((e) => (e["artefacts"] = [{ ref: "artefact://refund/ledger", media_type: "application/json", role: "required" }]));
    const canRead = (): boolean => {
      throw new Error("store down");
    };
    expect(() => accept(envelope, { me: "billing", canRead })).toThrow("store down");
  });
});

describe("accept: several reasons at once", () => {
  it("collects every schema error", () => {
    const envelope = variant((e) => {
      e["hop"]["index"] = "1";
      e["payload"] = {};
      delete e["constraints"];
      e["provenance"][0]["at"] = "yesterday";
    });
    expect(reasonsOf(accept(envelope, asBilling))).toEqual([
      { path: "/payload", rule: "additional-property" },
      { path: "/hop/index", rule: "type" },
      { path: "/provenance/0/at", rule: "format" },
      { path: "/constraints", rule: "required" },
    ]);
  });

  it("collects every semantic and graph error of a schema-valid envelope", () => {
    const envelope = variant((e) => {
      e["envelope_version"] = "2.1.0";
      e["to_agent"]["role"] = "peer";
      e["budget"]["consumed"] = { tokens: 50000, tool_calls: 20 };
      e["open_questions"] = [{ question: "which order?", blocking: true }];
      e["hop"] = { index: 3, limit: 3, path: ["triage", "billing", "triage", "billing"] };
    });
    expect(reasonsOf(accept(envelope, { me: "refunds" }))).toEqual([
      { path: "/envelope_version", rule: "version-major" },
      { path: "/to_agent/id", rule: "not-addressed-to-me" },
      { path: "/hop/index", rule: "hop-limit-reached" },
      { path: "/budget/consumed/tokens", rule: "budget-exhausted" },
      { path: "/budget/consumed/tool_calls", rule: "budget-exhausted" },
      { path: "/open_questions/0/blocking", rule: "blocking-question" },
      { path: "/to_agent/role", rule: "role-mismatch" },
    ]);
  });

  it("runs every check whose inputs are well-typed, whatever the schema found", () => {
    const envelope = variant((e) => {
      e["payload"] = 1;
      e["envelope_version"] = "2.0.0";
      e["handoff_id"] = "not-a-uuid";
      e["from_agent"]["role"] = "worker";
    });
    expect(reasonsOf(accept(envelope, { me: "refunds" }))).toEqual([
      { path: "/payload", rule: "additional-property" },
      { path: "/handoff_id", rule: "format" },
      { path: "/envelope_version", rule: "version-major" },
      { path: "/to_agent/id", rule: "not-addressed-to-me" },
      { path: "/from_agent/role", rule: "role-mismatch" },
    ]);
  });

  it("reports a type fault once although the contract restates the type", () => {
    const envelope = variant((e) => (e["hop"] = "1"));
    expect(reasonsOf(accept(envelope, asBilling))).toEqual([{ path: "/hop", rule: "type" }]);
  });
});

describe("accept: duplicates and ownership", () => {
  it("reports a repeated handoff_id as a duplicate, not processed twice", () => {
    const seen = createMemorySeenStore();
    expect(accept(base, { me: "billing", seen }).ok).toBe(true);
    const again = accept(base, { me: "billing", seen });
    expect(again).toMatchObject({ ok: false, duplicate: true, rejection: { route: "discard" } });
    expect(reasonsOf(again)).toEqual([{ path: "/handoff_id", rule: "duplicate" }]);
  });

  it("does not remember a rejected envelope, so its repair is accepted", () => {
    const seen = createMemorySeenStore();
    expect(accept(variant((e) => delete e["constraints"]), { me: "billing", seen }).ok).toBe(false);
    expect(accept(base, { me: "billing", seen }).ok).toBe(true);
  });

  it("refuses a second receiver for the same task and hop", () => {
    const seen = createMemorySeenStore();
    expect(accept(base, { me: "billing", seen }).ok).toBe(true);
    const other = variant((e) => {
      e["handoff_id"] = "9a1c2b3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d";
      e["to_agent"] = { id: "refunds", role: "worker" };
      e["hop"]["path"] = ["triage", "refunds"];
      e["goal"]["out_of_scope"] = ["chargebacks"];
    });
    expect(accept(other, { me: "refunds" }).ok).toBe(true);
    const result = accept(other, { me: "refunds", seen });
    expect(reasonsOf(result)).toEqual([{ path: "/to_agent/id", rule: "owner-conflict" }]);
    expect(result.duplicate).toBe(false);
  });

  it("reports the same hop re-sent to the same receiver under a fresh handoff_id as a replay (a duplicate)", () => {
    const seen = createMemorySeenStore();
    expect(accept(base, { me: "billing", seen }).ok).toBe(true);
    const replayed = variant((e) => (e["handoff_id"] = "9a1c2b3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"));
    const result = accept(replayed, { me: "billing", seen, now: () => FIXED_NOW });
    expect(result).toMatchObject({ ok: false, duplicate: true, rejection: { route: "discard" } });
    expect(!result.ok && result.rejection.reasons.map((r) => [r.path, r.rule, r.message])).toEqual([
      [
        "/hop/index",
        "duplicate",
        'hop 1 of task "refund-2026-11-0042" was accepted by "billing" before, as handoff "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39": a replay is not processed twice; a resumed task continues at the next hop',
      ],
    ]);
  });

  it("trusts the store's claim (a lost race is a duplicate)", () => {
    const holder = { handoffId: "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39", receiver: "billing", at: 0 };
    const racing = { claim: () => ({ outcome: "duplicate" as const, of: "handoff" as const, holder }) };
    expect(accept(base, { me: "billing", seen: racing })).toMatchObject({ ok: false, duplicate: true });
  });

  it("throws what the seen store throws (an unavailable store is not bad input)", () => {
    const broken = {
      claim: (): never => {
        throw new Error("redis down");
      },
    };
    expect(() => accept(base, { me: "billing", seen: broken })).toThrow("redis down");
  });
});

describe("accept: never throws on bad input", () => {
  const cyclic: Envelope = clone(base);
  cyclic["goal"]["self"] = cyclic["goal"];
  cyclic["decisions"] = [];
  cyclic["decisions"].push(cyclic["decisions"]);
  const getter = clone(base);
  Object.defineProperty(getter, "task_id", {
    enumerable: true,
    get() {
      throw new Error("boom");
    },
  });
  const proxy = new Proxy(clone(base), {
    ownKeys() {
      throw new Error("no keys for you");
    },
  });
  it.each([
    ["null", null],
    ["undefined", undefined],
    ["an array", [base]],
    ["a string", JSON.stringify(base)],
    ["a number", 42],
    ["a cyclic object", cyclic],
    ["an object with a throwing getter", getter],
    ["a proxy whose traps throw", proxy],
  ])("%s", (_name, input) => {
    let result: AcceptResult | undefined;
    expect(() => (result = accept(input, asBilling))).not.toThrow();
    expect(result?.ok).toBe(false);
    if (result && !result.ok) expect(result.rejection.reasons.length).toBeGreaterThan(0);
  });

  it("reports a throwing getter as unreadable-envelope", () => {
    expect(reasonsOf(accept(getter, asBilling))).toEqual([{ path: "", rule: "unreadable-envelope" }]);
  });

  it("fills the rejection header with null when it cannot be read", () => {
    expect(accept(null, asBilling)).toMatchObject({ rejection: { handoff_id: null, hop_index: null, producer: null } });
  });
});

describe("accept: observe edges", () => {
  const observed = createGraphAccept(
    checkedGraph(`graph g {
      entry lead
      agent lead: supervisor { terminal done }
      agent a: worker
      agent b: worker { terminal handed complete }
      delegate lead -> a { max_rounds 1 }
      return a -> lead
      transfer a -> b observe
    }`),
  ).accept;
  const envelope = variant((e) => {
    e["hop"] = { index: 2, limit: 3, path: ["lead", "a", "b"] };
    e["from_agent"] = { id: "a", role: "worker" };
    e["to_agent"] = { id: "b", role: "worker" };
  });

  it("accepts with the reasons as warnings", () => {
    const result = observed(envelope, { me: "b" });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.record.warnings.map((w) => `${w.path} ${w.rule}`)).toEqual([
        "/artefacts required",
        "/decisions required",
      ]);
    }
  });

  it("still refuses an envelope addressed to someone else", () => {
    const complete = variant((e) => {
      Object.assign(e, clone(envelope));
      e["decisions"] = [{ id: "d1", statement: "refund", rationale: "double charge", confidence: 0.9, reversible: false }];
      e["artefacts"] = [{ ref: "s3://bucket/memo.md", media_type: "text/markdown", role: "required" }];
    });
    expect(observed(complete, { me: "b" }).ok).toBe(true);
    expect(reasonsOf(observed(complete, { me: "a" }))).toEqual([{ path: "/to_agent/id", rule: "not-addressed-to-me" }]);
    expect(observed(envelope, { me: "a" }).ok).toBe(false);
  });

  it("still refuses an envelope whose handoff_id is unusable", () => {
    const result = observed(variant((e) => Object.assign(e, clone(envelope), { handoff_id: 7 })), { me: "b" });
    expect(result.ok).toBe(false);
  });

  it("still refuses a header fault that only the count past 20 of its rule holds", () => {
    // 20 of 21 decisions above confidence 1 are listed; the contract's own cap on hop.limit
    // comes after the envelope's faults, as the 22nd `maximum`, and is only counted.
    const faulty = (hopFault: boolean) =>
      variant((e) => {
        Object.assign(e, clone(envelope));
        e["decisions"] = Array.from({ length: 21 }, (_, i) => ({ id: `d${i}`, statement: "s", rationale: "r", confidence: 2, reversible: false }));
        e["artefacts"] = [{ ref: "s3://bucket/memo.md", media_type: "text/markdown", role: "required" }];
        if (hopFault) e["hop"]["limit"] = 1000;
      });
    const warned = observed(faulty(false), { me: "b" });
    expect(warned.ok && warned.record.warnings.map((w) => `${w.path} ${w.rule}`)).toEqual(Array.from({ length: 21 }, (_, i) => `/decisions/${i}/confidence maximum`));
    const refused = observed(faulty(true), { me: "b" });
    expect(reasonsOf(refused).at(-1)).toEqual({ path: "/decisions/20/confidence", rule: "maximum" });
    expect(refused.ok ? [] : refused.rejection.reasons.at(-1)?.message).toBe("and 2 more maximum reasons, not listed (a verdict lists at most 20 per rule)");
  });

  it("still reports duplicates", () => {
    const seen = createMemorySeenStore({ scope: "receiver" }); // hop 2 of a walk whose hop 1 the test leaves out
    expect(observed(envelope, { me: "b", seen }).ok).toBe(true);
    expect(observed(envelope, { me: "b", seen }).duplicate).toBe(true);
  });
});

describe("accept: two edges between the same agents", () => {
  // s1 may both delegate to s2 and return to it (both supervisors): the envelope carries no kind,
  // so the first edge whose contract passes is the one taken.
  const pairAccept = createGraphAccept(
    checkedGraph(`graph pair {
      entry s2
      agent s1: supervisor
      agent s2: supervisor { terminal done }
      delegate s2 -> s1 { max_rounds 1 }
      delegate s1 -> s2 { max_rounds 1 }
      return s1 -> s2 { max_rounds 1 }
    }`),
  ).accept;
  const envelope = (edit: (e: Envelope) => void): Envelope =>
    variant((e) => {
      e["hop"] = { index: 2, limit: 3, path: ["s2", "s1", "s2"] };
      e["from_agent"] = { id: "s1", role: "supervisor" };
      e["to_agent"] = { id: "s2", role: "supervisor" };
      edit(e);
    });

  it("accepts an envelope that meets either contract", () => {
    expect(pairAccept(envelope(() => {}), { me: "s2" }).ok).toBe(true);
    const returned = envelope((e) => {
      delete e["constraints"];
      e["status"] = "ready";
      e["artefacts"] = [{ ref: "s3://bucket/memo.md", media_type: "text/markdown", role: "required" }];
    });
    expect(pairAccept(returned, { me: "s2" }).ok).toBe(true);
  });

  it("reports the first edge's contract when neither passes", () => {
    expect(reasonsOf(pairAccept(envelope((e) => delete e["constraints"]), { me: "s2" }))).toEqual([{ path: "/constraints", rule: "required" }]);
  });
});

describe("accept: messages", () => {
  const messages = (result: AcceptResult): string[] => (result.ok ? [] : result.rejection.reasons.map((r) => `${r.path} ${r.rule}: ${r.message}`));

  it("names the graph's hop limit as the authority, whatever limit the envelope claims", () => {
    const result = accept(
      variant((e) => {
        e["hop"] = { index: 8, limit: 99, path: ["triage", "billing", "triage", "billing", "triage", "billing", "triage", "billing", "triage"] };
      }),
      asBilling,
    );
    expect(messages(result)).toContain("/hop/index hop-limit-reached: hop 8 is at or past the limit of graph refund_desk, 8: escalate to a human, do not forward");
    expect(!result.ok && result.rejection.route).toBe("escalate");
  });

  it("names the envelope's own lower limit when that is the one reached", () => {
    expect(messages(accept(variant((e) => (e["hop"]["limit"] = 1)), asBilling))).toEqual([
      "/hop/index hop-limit-reached: hop 1 is at or past the envelope's own limit of 1: escalate to a human, do not forward",
    ]);
  });

  it("says which version an envelope claims and what the agent is declared at", () => {
    expect(messages(accept(variant((e) => (e["to_agent"]["version"] = "3.0.0")), asBilling))).toEqual([
      '/to_agent/version agent-version: billing version "3.0.0" names a version outside 2.x; the agent is declared at 2.0.0 and does not accept another major',
    ]);
    expect(messages(accept(variant((e) => (e["to_agent"]["version"] = "2.1.0")), asBilling))).toEqual([
      "/to_agent/version agent-version: billing version \"2.1.0\" asks for a newer minor than the agent's declared 2.0.0; deploy the agent's new version first",
    ]);
  });

  it("escapes and bounds what it quotes from the envelope", () => {
    const hostile = `\u001b]0;x\u0007${"q".repeat(300)}`;
    const result = accept(variant((e) => (e["open_questions"] = [{ question: hostile, blocking: true }])), asBilling);
    expect(messages(result)).toEqual([
      `/open_questions/0/blocking blocking-question: unresolved: "\\u001b]0;x\\u0007${"q".repeat(114)}…" (186 more characters)`,
    ]);
  });
});
