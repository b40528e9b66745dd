import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { envelopeSchema } from "../../src/core/envelope-schema.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { toAgentInfos, toEdgeInfos, toGraphInfo } from "../../src/emit/graph-data.js";
import { createSchemaAjv } from "../../src/emit/schema-compiler.js";
import { createEnvelopeBuilder } from "../../src/runtime/envelope-builder.js";
import type { Envelope } from "../../src/runtime/envelope.js";
import { createMemorySeenStore } from "../../src/runtime/seen-store.js";
import { checkedGraph, projectRoot } from "../emit/helpers.js";

const graph = checkedGraph(readFileSync(join(projectRoot, "conformance", "help-desk", "graph.seam"), "utf8"));
const builder = createEnvelopeBuilder({ graph: toGraphInfo(graph), agents: toAgentInfos(graph), edges: toEdgeInfos(graph, graph.edges.map(() => 0)) });
const { accept } = createGraphAccept(graph);
const NOW = Date.UTC(2026, 11, 1, 9, 0, 0);
let ids = 0;
const nextId = (): string => `00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}`;

function start(): Envelope {
  return builder.first({
    me: "concierge",
    to: "invoices",
    taskId: "case-1",
    action: "read the customer's message",
    goal: { statement: "Explain the second invoice line", acceptance_criteria: ["each line matched"] },
    budget: { consumed: { tokens: 0 }, limit: { tokens: 60000 } },
    constraints: ["read only"],
    now: () => NOW,
    handoffId: nextId(),
  });
}

describe("createEnvelopeBuilder", () => {
  it("returns envelopes that share nothing with their inputs", () => {
    const budget = { consumed: { tokens: 0 }, limit: { tokens: 60000 } };
    const first = builder.first({ me: "concierge", to: "invoices", taskId: "case-9", action: "read", goal: { statement: "s", acceptance_criteria: ["c"] }, budget, handoffId: nextId() });
    (first.budget.consumed as { tokens: number }).tokens = 10;
    expect(budget.consumed.tokens).toBe(0);
    const received = JSON.parse(JSON.stringify(first)) as Envelope;
    const next = builder.next(received, { me: "invoices", to: "concierge", action: "done", status: "ready", handoffId: nextId() });
    (next.budget.consumed as { tokens: number }).tokens = 500;
    (next.goal.acceptance_criteria as string[]).push("more");
    (next.provenance[0] as { action: string }).action = "rewritten";
    expect(received.budget.consumed).toEqual({ tokens: 10 });
    expect(received.goal.acceptance_criteria).toEqual(["c"]);
    expect(received.provenance[0]?.action).toBe("read");
  });

  it("writes the first envelope of a task with the header from the graph", () => {
    expect(start()).toEqual({
      envelope_version: "1.3.0",
      handoff_id: `00000000-0000-4000-8000-${String(ids).padStart(12, "0")}`,
      task_id: "case-1",
      hop: { index: 1, limit: 14, path: ["concierge", "invoices"] },
      from_agent: { id: "concierge", role: "supervisor", version: "3.1.0" },
      to_agent: { id: "invoices", role: "worker", version: "2.4.0" },
      goal: { statement: "Explain the second invoice line", acceptance_criteria: ["each line matched"] },
      constraints: ["read only"],
      budget: { consumed: { tokens: 0 }, limit: { tokens: 60000 } },
      provenance: [{ agent: "concierge", action: "read the customer's message", at: "2026-12-01T09:00:00.000Z", status: "asserted" }],
    });
  });

  it("hands a task on so that each receiver accepts it, one hop at a time", () => {
    const seen = createMemorySeenStore();
    let envelope = start();
    expect(accept(envelope, { me: "invoices", seen }).ok).toBe(true);
    envelope = builder.next(envelope, {
      me: "invoices",
      to: "diagnostics",
      action: "found a fault",
      // A transfer's contract asks for decisions with rationales and the artefacts.
      decisions: [{ id: "d1", statement: "a fault, not billing", rationale: "the router was swapped", confidence: 0.8, reversible: true }],
      artefacts: [{ ref: "artefact://case-1/invoice", media_type: "application/pdf", role: "supporting" }],
      handoffId: nextId(),
      now: () => NOW,
    });
    expect(accept(envelope, { me: "diagnostics", seen })).toMatchObject({ ok: true });
    envelope = builder.next(envelope, { me: "diagnostics", to: "concierge", action: "fixed", status: "ready", artefacts: [{ ref: "artefact://case-1/router-log", media_type: "text/plain", role: "supporting" }], handoffId: nextId() });
    expect(accept(envelope, { me: "concierge", seen })).toMatchObject({ ok: true });
    expect(envelope.hop).toEqual({ index: 3, limit: 14, path: ["concierge", "invoices", "diagnostics", "concierge"] });
    expect(envelope.provenance.map((p) => p.agent)).toEqual(["concierge", "invoices", "diagnostics"]);
    expect(envelope.constraints).toEqual(["read only"]);
  });

  it("gives every handoff a fresh random UUID by default", () => {
    const { goal, budget } = start();
    const a = builder.first({ me: "concierge", to: "invoices", taskId: "t", action: "a", goal, budget });
    const b = builder.first({ me: "concierge", to: "invoices", taskId: "t", action: "a", goal, budget });
    expect(a.handoff_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.handoff_id).not.toBe(b.handoff_id);
  });

  it("refuses what the graph does not allow", () => {
    const first = start();
    expect(() => builder.next(first, { me: "invoices", to: "shipping", action: "x" })).toThrow(new TypeError("graph help_desk has no edge invoices -> shipping"));
    expect(() => builder.next(first, { me: "diagnostics", to: "concierge", action: "x" })).toThrow(
      new TypeError('the envelope received was addressed to "invoices", not to "diagnostics"'),
    );
    const { goal, budget } = first;
    expect(() => builder.first({ goal, budget, me: "invoices", to: "concierge", taskId: "t", action: "x" })).toThrow(
      new TypeError('"invoices" is not an entry of graph help_desk: a task starts at concierge, front_desk'),
    );
    expect(() => builder.first({ goal, budget, me: "concierge", to: "ghost", taskId: "t", action: "x" })).toThrow(new TypeError('graph help_desk has no agent "ghost"'));
  });

  it("names a received envelope or arrivals it cannot read, as the Python builders do, and never coerces", () => {
    const first = start();
    const handoff = { me: "invoices", to: "diagnostics", action: "x" };
    const received = (value: unknown) => value as Envelope;
    expect(() => builder.next(received(null), handoff)).toThrow(new TypeError("nextEnvelope(received, handoff): received must be an envelope (the object accept() took)"));
    expect(() => builder.next(received("hello"), handoff)).toThrow(new TypeError("nextEnvelope(received, handoff): received must be an envelope (the object accept() took)"));
    expect(() => builder.next(received({}), handoff)).toThrow(new TypeError('the envelope received was addressed to null, not to "invoices"'));
    const unread = new TypeError("the envelope received has no hop.path and hop.index to extend");
    expect(() => builder.next(received({ ...first, hop: undefined }), handoff)).toThrow(unread);
    // "1" is not 1: the next hop is not "11".
    expect(() => builder.next(received({ ...first, hop: { ...first.hop, index: "1" } }), handoff)).toThrow(unread);
    expect(() => builder.join(received(null) as unknown as Envelope[], { me: "concierge", to: "front_desk", action: "x" })).toThrow(
      new TypeError("joinEnvelope(arrivals, handoff): arrivals must be a list of envelopes (the objects accept() took)"),
    );
    expect(() => builder.join([received(null)], { me: "concierge", to: "front_desk", action: "x" })).toThrow(
      new TypeError("joinEnvelope(arrivals, handoff): arrivals must be a list of envelopes (the objects accept() took)"),
    );
    // A branch id that is no string: accept() refuses it, and nothing would carry it on.
    expect(() => builder.next(received({ ...first, hop: { ...first.hop, branch: 5 } }), handoff)).toThrow(
      new TypeError("the envelope received has a hop.branch that is a number, not a branch id (accept() refuses it)"),
    );
  });

  it("takes at a join only arrivals it can add up, each branch once", () => {
    const back = builder.next(start(), { me: "invoices", to: "concierge", action: "answered", status: "ready" });
    const arrival = { ...back, hop: { ...back.hop, branch: "fan/invoices" } };
    const handoff = { me: "concierge", to: "invoices", action: "x" };
    expect(() => builder.join([], handoff)).toThrow(new TypeError("joinEnvelope(arrivals, handoff): no arrival given; a join hands on what reached it"));
    const unread = new TypeError("an arrival has no hop.branch, hop.path, whole-number hop.index or budget: a join takes the envelopes its branches sent it");
    expect(() => builder.join([{ ...arrival, budget: undefined } as unknown as Envelope], handoff)).toThrow(unread);
    expect(() => builder.join([{ ...arrival, budget: { consumed: { tokens: 1 } } } as unknown as Envelope], handoff)).toThrow(unread);
    const counts = new TypeError("an arrival's budget counts must be whole numbers from 0 to 2^53 - 1, as accept() requires: a join adds them up");
    for (const count of [-100, "3", Number.NaN, 1.5, true, 2 ** 53, null]) {
      expect(() => builder.join([{ ...arrival, budget: { limit: { tokens: count }, consumed: {} } } as unknown as Envelope], handoff)).toThrow(counts);
      expect(() => builder.join([{ ...arrival, budget: { limit: {}, consumed: { tokens: count } } } as unknown as Envelope], handoff)).toThrow(counts);
    }
    expect(() => builder.join([arrival, { ...arrival, handoff_id: nextId() }], handoff)).toThrow(
      new TypeError('two arrivals come from branch "fan/invoices": a join takes each branch\'s arrival once'),
    );
    expect(builder.join([arrival], handoff).budget).toEqual({ limit: arrival.budget.limit, consumed: arrival.budget.consumed });
  });

  it("refuses an option it does not know, rather than dropping it", () => {
    const first = start();
    const misspelt = { me: "invoices", to: "diagnostics", action: "x", constrants: ["c"] } as unknown as Parameters<typeof builder.next>[1];
    expect(() => builder.next(first, misspelt)).toThrow(
      new TypeError(
        'nextEnvelope: unknown option "constrants"; the options are action, allowed_next_step, approval, artefacts, blocked_on, budget, constraints, decisions, goal, handoffId, me, note, now, open_questions, provenanceStatus, safe_resume, status, to',
      ),
    );
    expect(() => builder.next(first, { me: "invoices", to: "diagnostics", action: "x" })).not.toThrow();
  });

  it("writes the approval a gate gave, after the completion fields", () => {
    const first = start();
    const approval = { approver: "ops-lead", approved_at: "2026-12-01T09:05:00.000Z", pending_handoff_id: first.handoff_id };
    const next = builder.next(first, { me: "invoices", to: "diagnostics", action: "approved", status: "ready", approval });
    expect(next.approval).toEqual(approval);
    expect(next.approval).not.toBe(approval);
    expect(Object.keys(next).slice(-2)).toEqual(["status", "approval"]);
    expect(builder.next(first, { me: "invoices", to: "diagnostics", action: "x" })).not.toHaveProperty("approval");
  });

  it("refuses to hand on a task at its hop limit, saying what to do instead", () => {
    const late: Envelope = { ...start(), hop: { index: 13, limit: 14, path: [...Array(13).fill("concierge"), "invoices"] } };
    expect(() => builder.next(late, { me: "invoices", to: "concierge", action: "x" })).toThrow(
      new RangeError("hop 14 would reach the hop limit of graph help_desk, 14: escalate the task to a human instead of handing it on"),
    );
  });
});

describe("options of the wrong type, from a caller without types, raise a TypeError naming them", () => {
  type Options = Record<string, unknown>;
  const goal = { statement: "s", acceptance_criteria: ["c"] };
  const budget = { consumed: { tokens: 0 }, limit: { tokens: 60000 } };
  /** Each builder, called with `options` over a valid handoff; the arrivals of a join are read after its options. */
  const builders = {
    firstEnvelope: (options: Options) => builder.first({ me: "concierge", to: "invoices", taskId: "t", action: "a", goal, budget, ...options } as never),
    nextEnvelope: (options: Options) => builder.next(start(), { me: "invoices", to: "diagnostics", action: "a", ...options } as never),
    joinEnvelope: (options: Options) => builder.join(arrivals(), { me: "concierge", to: "invoices", action: "a", ...options } as never),
  };
  /** What reached a join: an envelope handed back to the entry agent, inside a branch. */
  function arrivals(): Envelope[] {
    const back = builder.next(start(), { me: "invoices", to: "concierge", action: "answered", status: "ready" });
    return [{ ...back, hop: { ...back.hop, branch: "fan/invoices" } }];
  }

  const mistakes: [call: keyof typeof builders, options: Options, message: string][] = [
    ["firstEnvelope", { me: undefined }, "me must be a string (this agent's id), not undefined"],
    ["firstEnvelope", { to: 7 }, "to must be a string (the receiving agent's id), not a number"],
    ["firstEnvelope", { action: null }, "action must be a string (what this agent did), not null"],
    ["firstEnvelope", { taskId: undefined }, "taskId must be a string (the task's id), not undefined"],
    ["firstEnvelope", { taskId: 42 }, "taskId must be a string (the task's id), not a number"],
    ["firstEnvelope", { goal: undefined }, "goal must be an object of JSON data ({ statement, acceptance_criteria }), not undefined"],
    ["firstEnvelope", { goal: "<script>alert(1)</script>" }, "goal must be an object of JSON data ({ statement, acceptance_criteria }), not a string"],
    ["firstEnvelope", { budget: null }, "budget must be an object of JSON data ({ limit, consumed }), not null"],
    ["firstEnvelope", { provenanceStatus: true }, "provenanceStatus must be a string (verified, asserted or unverified), not a boolean"],
    ["firstEnvelope", { note: { text: "n" } }, "note must be a string (a note for the provenance entry), not an object"],
    ["firstEnvelope", { status: () => "ready" }, "status must be a string (the envelope's status), not a function"],
    ["firstEnvelope", { handoffId: 1n }, "handoffId must be a string (the new handoff's id), not a bigint"],
    ["nextEnvelope", { me: 1 }, "me must be a string (this agent's id), not a number"],
    ["nextEnvelope", { to: undefined }, "to must be a string (the receiving agent's id), not undefined"],
    ["nextEnvelope", { action: ["read"] }, "action must be a string (what this agent did), not an array"],
    ["nextEnvelope", { goal: null }, "goal must be an object of JSON data ({ statement, acceptance_criteria }), not null"],
    ["nextEnvelope", { budget: [] }, "budget must be an object of JSON data ({ limit, consumed }), not an array"],
    ["nextEnvelope", { provenanceStatus: null }, "provenanceStatus must be a string (verified, asserted or unverified), not null"],
    ["nextEnvelope", { note: 3 }, "note must be a string (a note for the provenance entry), not a number"],
    ["nextEnvelope", { status: Symbol("ready") }, "status must be a string (the envelope's status), not a symbol"],
    ["nextEnvelope", { handoffId: null }, "handoffId must be a string (the new handoff's id), not null"],
    ["joinEnvelope", { me: undefined }, "me must be a string (this agent's id), not undefined"],
    ["joinEnvelope", { to: false }, "to must be a string (the receiving agent's id), not a boolean"],
    ["joinEnvelope", { action: undefined }, "action must be a string (what this agent did), not undefined"],
    ["joinEnvelope", { goal: ["s"] }, "goal must be an object of JSON data ({ statement, acceptance_criteria }), not an array"],
    ["joinEnvelope", { budget: 100 }, "budget must be an object of JSON data ({ limit, consumed }), not a number"],
    ["joinEnvelope", { parent: "envelope" }, "parent must be an object of JSON data (the envelope received before the fan-out), not a string"],
    ["joinEnvelope", { note: [] }, "note must be a string (a note for the provenance entry), not an array"],
    ["joinEnvelope", { handoffId: 7 }, "handoffId must be a string (the new handoff's id), not a number"],
    ["firstEnvelope", { now: 1764410531250 }, "now must be a function (the time in milliseconds since the Unix epoch), not a number"],
    ["nextEnvelope", { now: null }, "now must be a function (the time in milliseconds since the Unix epoch), not null"],
    ["joinEnvelope", { now: "2026-12-01" }, "now must be a function (the time in milliseconds since the Unix epoch), not a string"],
  ];

  it.each(mistakes)("%s %o", (call, options, message) => {
    expect(() => builders[call](options)).toThrow(new TypeError(`${call}: ${message}`));
  });

  it("checks them first: a mistyped me is named, not looked up as an agent", () => {
    expect(() => builders.firstEnvelope({ me: { id: "concierge" }, to: "ghost" })).toThrow(new TypeError("firstEnvelope: me must be a string (this agent's id), not an object"));
    expect(() => builder.next(null as unknown as Envelope, { me: "invoices", to: "diagnostics", action: "a", budget: [] } as never)).toThrow(
      new TypeError("nextEnvelope: budget must be an object of JSON data ({ limit, consumed }), not an array"),
    );
  });

  it("names a handoff that is no object of options, in each builder", () => {
    expect(() => builder.first(null as never)).toThrow(new TypeError("firstEnvelope: the handoff must be an object of options such as { me, to, action }, not null"));
    expect(() => builder.next(start(), [] as never)).toThrow(new TypeError("nextEnvelope: the handoff must be an object of options such as { me, to, action }, not an array"));
    expect(() => builder.join(arrivals(), "concierge" as never)).toThrow(new TypeError("joinEnvelope: the handoff must be an object of options such as { me, to, action }, not a string"));
  });

  // The clock is read as accept() reads it (src/runtime/clock.ts), so a wrong one gets the same words.
  const clocks: [call: keyof typeof builders, now: () => unknown, error: Error][] = [
    ["firstEnvelope", () => Number.NaN, new RangeError("firstEnvelope: now() returned NaN, outside the range of Date")],
    ["nextEnvelope", () => 1e20, new RangeError("nextEnvelope: now() returned 100000000000000000000, outside the range of Date")],
    ["joinEnvelope", () => "2026-12-01", new TypeError("joinEnvelope: now() must return a number of ms since the Unix epoch")],
    ["firstEnvelope", () => 1764410531.25, new TypeError("firstEnvelope: now() returned 1764410531.25, which is seconds since the Unix epoch: it must return milliseconds (Date.now())")],
  ];

  it.each(clocks)("%s refuses the clock's answer %#", (call, now, error) => {
    expect(() => builders[call]({ now })).toThrow(error);
  });

  it("writes the clock's time at the range's ends and in its last millisecond", () => {
    expect(builders.firstEnvelope({ now: () => 8.64e15 }).provenance[0]?.at).toBe("+275760-09-13T00:00:00.000Z");
    expect(builders.firstEnvelope({ now: () => 999_999_999.9 }).provenance[0]?.at).toBe("1970-01-12T13:46:39.999Z");
  });

  it("stays quiet for every option of the right type, given or left out", () => {
    const given = { provenanceStatus: "verified", note: "n", status: "ready", handoffId: nextId() };
    const first = builders.firstEnvelope(given);
    expect(first).toMatchObject({ handoff_id: given.handoffId, status: "ready", provenance: [{ status: "verified", note: "n" }] });
    expect(builders.firstEnvelope({}).task_id).toBe("t");
    expect(builders.nextEnvelope({ ...given, goal, budget, handoffId: nextId() })).toMatchObject({ goal, budget, status: "ready" });
    expect(builders.nextEnvelope({}).hop.index).toBe(2);
    const parent = start();
    expect(builders.joinEnvelope({ ...given, parent, handoffId: nextId() })).toMatchObject({ goal: parent.goal, status: "ready" });
    expect(builders.joinEnvelope({ goal, budget }).budget).toEqual(budget);
  });
});

describe("the Envelope type", () => {
  it("names exactly the schema's fields: a value with every field set is a valid envelope", () => {
    const full: Required<Envelope> = {
      envelope_version: "1.3.0",
      handoff_id: "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39",
      task_id: "t",
      hop: { index: 1, limit: 8, path: ["a", "b"] },
      from_agent: { id: "a", role: "supervisor", version: "1.0.0" },
      to_agent: { id: "b", role: "worker", version: "1.0.0" },
      goal: { statement: "s", acceptance_criteria: ["c"], out_of_scope: [] },
      decisions: [{ id: "d", statement: "s", rationale: "r", confidence: 1, reversible: true, evidence: [] }],
      artefacts: [{ ref: "artefact://x", media_type: "text/plain", role: "required", digest: `sha256:${"0".repeat(64)}`, byte_size: 1, summary: "s", read_scope: "r" }],
      constraints: [],
      budget: { consumed: { tokens: 1, wall_clock_ms: 1, tool_calls: 1, retries: 1, cost_micros: 1 }, limit: {} },
      open_questions: [{ question: "q", blocking: false, owner_hint: "o" }],
      provenance: [{ agent: "a", action: "x", at: "2026-12-01T09:00:00Z", status: "verified", note: "n" }],
      status: "ready",
      allowed_next_step: "n",
      safe_resume: "r",
      blocked_on: "b",
      approval: { approver: "finance-lead", approved_at: "2026-12-01T09:05:00Z", pending_handoff_id: "1c6d4f9a-7b2e-4f3c-8a81-3e5d9b2f6c4a", note: "ok" },
    };
    const validate = createSchemaAjv().compile(envelopeSchema as object);
    expect(validate(full)).toBe(true);
    expect(Object.keys(full).sort()).toEqual(Object.keys(envelopeSchema["properties"] as object).sort());
  });
});
