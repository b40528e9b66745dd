/**
 * The task ledger through accept(): the attempts a producer might make to sneak a task past its
 * owner, loop the repair route or revive a finished task are each refused with a message naming
 * what went wrong; finish() misuse is a TypeError; the store's scope and expiry.
 */
import { describe, expect, it } from "vitest";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import type { AcceptResult, Refused } from "../../src/runtime/accept.js";
import type { FinishOptions } from "../../src/runtime/finish.js";
import { createMemorySeenStore, type ClaimRequest } from "../../src/runtime/seen-store.js";
import { quoteUntrusted } from "../../src/core/untrusted-text.js";
import { ledgerEnvelope, ledgerGraph, type Envelope } from "./ledger-envelopes.js";

const { accept, acceptAsync, finish, finishAsync } = createGraphAccept(ledgerGraph);
const T0 = Date.parse("2026-12-01T09:00:00Z");

let ids = 0;
/** An envelope of task `task` along `path` (the last two entries are producer and receiver). */
const hop = (task: string, path: string[], edit: (e: Envelope) => void = () => {}): Envelope =>
  ledgerEnvelope(task, path, `7f3e2d1c-0b9a-4c8d-9e7f-${String(++ids).padStart(12, "0")}`, edit);

function refused(result: AcceptResult): Refused["rejection"] {
  if (result.ok) throw new Error("accepted");
  return result.rejection;
}

const deliver = (seen: ReturnType<typeof createMemorySeenStore>, envelope: Envelope, at = T0): AcceptResult =>
  accept(envelope, { me: envelope["to_agent"].id, seen, now: () => at });

describe("the ledger refuses, naming what went wrong", () => {
  it("a producer that no longer owns the task (sneaking past the owner)", () => {
    const seen = createMemorySeenStore();
    expect(deliver(seen, hop("case-1", ["concierge", "invoices"])).ok).toBe(true);
    const sneak = refused(deliver(seen, hop("case-1", ["concierge", "invoices", "concierge", "diagnostics"])));
    expect(sneak.route).toBe("repair");
    expect(sneak.attempt).toBe(1);
    expect(sneak.reasons).toEqual([
      {
        path: "/hop/index",
        rule: "hop-skipped",
        message: 'hop 3 of task "case-1" skips hop 2, which no one accepted: hop 1 was accepted last, by "invoices", so the next hop is 2',
      },
      {
        path: "/from_agent/id",
        rule: "not-owner",
        message: '"concierge" does not own task "case-1": "invoices" accepted its last hop (1), so only "invoices" may hand it on',
      },
    ]);
  });

  it("a path that rewrites who held the task", () => {
    const seen = createMemorySeenStore();
    deliver(seen, hop("case-2", ["concierge", "invoices"]));
    deliver(seen, hop("case-2", ["concierge", "invoices", "concierge"]));
    const rewritten = refused(deliver(seen, hop("case-2", ["concierge", "diagnostics", "concierge", "shipping"])));
    expect(rewritten.reasons).toEqual([
      {
        path: "/hop/path/1",
        rule: "path-disagrees",
        message: 'says "diagnostics", but the ledger of task "case-2" records "invoices" at this step (hop 2 was accepted last, by "concierge", so the next hop is 3)',
      },
    ]);
  });

  it("a counter reset by a retry wrapper (not a replay: another producer sent hop 2)", () => {
    const seen = createMemorySeenStore();
    deliver(seen, hop("case-3", ["concierge", "invoices"]));
    deliver(seen, hop("case-3", ["concierge", "invoices", "concierge"]));
    deliver(seen, hop("case-3", ["concierge", "invoices", "concierge", "diagnostics"]));
    const reset = refused(deliver(seen, hop("case-3", ["concierge", "diagnostics", "concierge"])));
    expect(reset.reasons).toEqual([
      {
        path: "/hop/index",
        rule: "hop-reset",
        message: 'hop 2 of task "case-3" goes back: hop 3 was accepted last, by "diagnostics", so the next hop is 4 (a counter that is reset disables the hop limit)',
      },
      {
        path: "/hop/path/1",
        rule: "path-disagrees",
        message: 'says "diagnostics", but the ledger of task "case-3" records "invoices" at this step (hop 3 was accepted last, by "diagnostics", so the next hop is 4)',
      },
    ]);
  });

  it("looping the repair route: the second refusal of a hop escalates, and so does every later one", () => {
    const seen = createMemorySeenStore();
    const broken = (): Envelope => hop("case-4", ["concierge", "invoices"], (e) => delete e["constraints"]);
    const routes = [1, 2, 3, 4].map(() => refused(deliver(seen, broken())));
    expect(routes.map((r) => [r.route, r.attempt, r.repairs])).toEqual([
      ["repair", 1, 1],
      ["escalate", 2, 1],
      ["escalate", 3, 1],
      ["escalate", 4, 1],
    ]);
  });

  it("reviving a finished task", () => {
    const seen = createMemorySeenStore();
    deliver(seen, hop("case-5", ["concierge", "diagnostics"]));
    expect(finish("case-5", { me: "diagnostics", terminal: "ticket_closed", outcome: "complete", seen, now: () => T0 + 1000 })).toEqual({
      ok: true,
      record: { task_id: "case-5", agent: "diagnostics", terminal: "ticket_closed", outcome: "complete", ended_at: "2026-12-01T09:00:01.000Z", hop_index: 1 },
    });
    const revived = refused(deliver(seen, hop("case-5", ["concierge", "diagnostics", "concierge"]), T0 + 2000));
    expect(revived.route).toBe("escalate");
    expect(revived.attempt).toBeNull();
    expect(revived.reasons).toEqual([
      {
        path: "/task_id",
        rule: "task-finished",
        message:
          'task "case-5" ended at 2026-12-01T09:00:01.000Z after hop 1: "diagnostics" took terminal "ticket_closed" ("complete"); a finished task takes no further handoff',
      },
    ]);
    expect(finish("case-5", { me: "diagnostics", terminal: "ticket_closed", outcome: "complete", seen, now: () => T0 + 3000 })).toEqual({
      ok: false,
      rule: "task-finished",
      message: 'task "case-5" ended before, at 2026-12-01T09:00:01.000Z: "diagnostics" took terminal "ticket_closed" (complete)',
      record: { task_id: "case-5", agent: "diagnostics", terminal: "ticket_closed", outcome: "complete", ended_at: "2026-12-01T09:00:01.000Z", hop_index: 1 },
    });
  });

  it("ending a task someone else owns", async () => {
    const seen = createMemorySeenStore();
    deliver(seen, hop("case-6", ["concierge", "diagnostics"]));
    expect(await finishAsync("case-6", { me: "concierge", terminal: "resolved", outcome: "complete", seen, now: () => T0 + 1000 })).toEqual({
      ok: false,
      rule: "not-owner",
      owner: "diagnostics",
      message: '"concierge" does not own task "case-6": "diagnostics" accepted its last hop (1), so only it may end the task',
    });
  });

  it("stays quiet for a valid walk, through acceptAsync too", async () => {
    const seen = createMemorySeenStore();
    const walk = [["concierge", "invoices"], ["concierge", "invoices", "diagnostics"], ["concierge", "invoices", "diagnostics", "concierge"]];
    for (const path of walk) expect((await acceptAsync(hop("case-7", path), { me: path[path.length - 1] as string, seen })).ok).toBe(true);
  });
});

describe("finish: misuse by the calling service is a TypeError", () => {
  const seen = createMemorySeenStore();
  const ok: FinishOptions = { me: "concierge", terminal: "resolved", outcome: "complete", seen };
  const cases: [string, () => unknown, string][] = [
    ["no task id", () => finish("", ok), "finish(taskId, options): taskId must be the task_id of the task that ends, a non-empty string"],
    ["no options", () => (finish as (t: string) => unknown)("t"), "finish(taskId, options): options must be an object such as { me, terminal, outcome, seen }"],
    ["an unknown option", () => finish("t", { ...ok, store: seen } as FinishOptions), 'finish(taskId, options): unknown option "store"; the options are me, terminal, outcome, seen and now'],
    ["an agent the graph lacks", () => finish("t", { ...ok, me: "clerk" }), 'finish(taskId, options): options.me "clerk" is no agent of graph help_desk'],
    ["a terminal the agent lacks", () => finish("t", { ...ok, terminal: "ticket_closed" }), 'finish(taskId, options): agent concierge declares no terminal "ticket_closed"; its terminals are resolved, to_person'],
    ["an agent without terminals", () => finish("t", { ...ok, me: "invoices" }), 'finish(taskId, options): agent invoices declares no terminal "resolved"; it declares none, so it cannot end a task'],
    ["another outcome", () => finish("t", { ...ok, outcome: "failed" }), 'finish(taskId, options): terminal resolved of concierge has the outcome complete, not "failed"'],
    ["no outcome", () => finish("t", { ...ok, outcome: undefined as never }), "finish(taskId, options): options.outcome is missing: terminal resolved of concierge has the outcome complete"],
    ["no terminal", () => finish("t", { ...ok, terminal: undefined as never }), "finish(taskId, options): options.terminal is missing: agent concierge declares resolved, to_person"],
    ["no terminal, of an agent without terminals", () => finish("t", { ...ok, me: "invoices", terminal: undefined as never }), "finish(taskId, options): options.terminal is missing: agent invoices declares no terminal, so it cannot end a task"],
    ["no me", () => finish("t", { ...ok, me: undefined as never }), "finish(taskId, options): options.me is missing: name the agent taking the terminal action"],
    ["a store without finish", () => finish("t", { ...ok, seen: { claim: () => ({ outcome: "claimed" }) } }), "finish(taskId, options): options.seen must be the store accept() claims on, with a finish(request) method, such as createMemorySeenStore()"],
    [
      "an asynchronous store",
      () => finish("t", { ...ok, seen: { claim: () => ({ outcome: "claimed" }), finish: (async () => ({})) as never } }),
      "finish(taskId, options): options.seen.finish returned a promise: use finishAsync with an asynchronous store",
    ],
  ];
  it.each(cases)("%s", (_name, call, message) => {
    expect(call).toThrow(new TypeError(message));
  });
  it("a clock outside Date's range is a RangeError", () => {
    expect(() => finish("t", { ...ok, now: () => 1e300 })).toThrow(RangeError);
  });
  it("a store answering an unknown outcome is a TypeError naming the call", async () => {
    const odd = { claim: () => ({ outcome: "claimed" as const }), finish: () => ({ outcome: "closed" }) as never };
    expect(() => finish("t", { ...ok, seen: odd })).toThrow(new TypeError('finish(taskId, options): options.seen.finish returned an unknown outcome "closed"'));
    await expect(finishAsync("t", { ...ok, seen: odd })).rejects.toThrow(new TypeError('finishAsync(taskId, options): options.seen.finish returned an unknown outcome "closed"'));
  });
});

describe("a store written before the ledger", () => {
  it("still works: its refusals all count as the first, so they go back for repair", async () => {
    const old = { claim: async (_request: ClaimRequest) => ({ outcome: "noted" as const }) };
    const broken = hop("case-8", ["concierge", "invoices"], (e) => delete e["constraints"]);
    for (let i = 0; i < 2; i++) {
      const rejection = refused(await acceptAsync(broken, { me: "invoices", seen: old }));
      expect([rejection.route, rejection.attempt]).toEqual(["repair", 1]);
    }
  });
});

describe("createMemorySeenStore: scope and expiry", () => {
  const request = (edit: Partial<ClaimRequest>): ClaimRequest => ({
    handoffId: `h${++ids}`,
    taskId: "t",
    hopIndex: 1,
    producer: "a",
    receiver: "b",
    edge: null,
    verdict: "accepted",
    at: 0,
    path: ["a", "b"],
    ...edit,
  });

  it("scoped to one receiver, sees gaps between its own hops as gaps, but still refuses a reset", () => {
    const seen = createMemorySeenStore({ scope: "receiver" });
    expect(seen.claim(request({ hopIndex: 1 }))).toEqual({ outcome: "claimed" });
    expect(seen.claim(request({ hopIndex: 3, producer: "c", path: ["a", "b", "c", "b"] }))).toEqual({ outcome: "claimed" });
    expect(seen.claim(request({ hopIndex: 2, producer: "c", path: ["a", "c", "b"] }))).toEqual({
      outcome: "custody",
      owner: "b",
      lastHop: 3,
      faults: [{ kind: "reset" }],
      attempt: 1,
    });
  });

  it("graph-wide (the default), refuses the same gap as a skip", () => {
    const seen = createMemorySeenStore();
    seen.claim(request({ hopIndex: 1 }));
    expect(seen.claim(request({ hopIndex: 3, producer: "c", path: ["a", "b", "c", "b"] }))).toEqual({
      outcome: "custody",
      owner: "b",
      lastHop: 1,
      faults: [{ kind: "skip" }, { kind: "producer" }],
      attempt: 1,
    });
  });

  it("forgets a task ttlMs after its last write, and not before", () => {
    const seen = createMemorySeenStore({ ttlMs: 1000 });
    const first = request({ at: 0 });
    seen.claim(first);
    expect(seen.claim({ ...first, at: 999 })).toMatchObject({ outcome: "duplicate", of: "handoff" });
    expect(seen.claim({ ...first, at: 1000 })).toEqual({ outcome: "claimed" });
  });

  it("finds the owner of any earlier hop, not only of the last", () => {
    const seen = createMemorySeenStore();
    seen.claim(request({ handoffId: "k1", hopIndex: 1, at: 10 }));
    seen.claim(request({ handoffId: "k2", hopIndex: 2, producer: "b", receiver: "c", path: ["a", "b", "c"] }));
    seen.claim(request({ handoffId: "k3", hopIndex: 3, producer: "c", receiver: "d", path: ["a", "b", "c", "d"] }));
    // Hop 1 re-sent under a fresh id, two hops back: no replay (only the latest hop is), a reset.
    expect(seen.claim(request({ hopIndex: 1 }))).toEqual({ outcome: "custody", owner: "d", lastHop: 3, faults: [{ kind: "reset" }, { kind: "producer" }], attempt: 1 });
    // Hop 2 for another receiver, from someone other than the owner d: two owners of hop 2 (the
    // round's second refusal over no edge).
    expect(seen.claim(request({ hopIndex: 2, producer: "b", receiver: "e", path: ["a", "b", "e"] }))).toEqual({
      outcome: "owner-conflict",
      owner: "c",
      attempt: 2,
    });
  });

  it("forgets tasks in the order of their last write, whichever task was written last before", () => {
    const seen = createMemorySeenStore({ ttlMs: 1000 });
    const a1 = request({ handoffId: "a1", taskId: "A", at: 0 });
    const b1 = request({ handoffId: "b1", taskId: "B", at: 100 });
    seen.claim(a1);
    seen.claim(b1);
    // B, the task written last, is written again; then A, which goes behind it.
    expect(seen.claim(request({ handoffId: "b2", taskId: "B", hopIndex: 2, producer: "b", receiver: "c", path: ["a", "b", "c"], at: 200 }))).toEqual({
      outcome: "claimed",
    });
    expect(seen.claim(request({ handoffId: "a2", taskId: "A", hopIndex: 2, producer: "b", receiver: "c", path: ["a", "b", "c"], at: 300 }))).toEqual({
      outcome: "claimed",
    });
    // At 1250 B (last written at 200) is forgotten, A (at 300) is not.
    expect(seen.claim({ ...a1, at: 1250 })).toMatchObject({ outcome: "duplicate", of: "handoff" });
    expect(seen.claim({ ...b1, at: 1250 })).toEqual({ outcome: "claimed" });
  });

  it("refuses options that are not as documented", () => {
    expect(() => createMemorySeenStore({ ttlMs: 0 })).toThrow(new TypeError("createMemorySeenStore: ttlMs must be a positive whole number of milliseconds, not 0"));
    expect(() => createMemorySeenStore({ scope: "replica" as never })).toThrow(new TypeError('createMemorySeenStore: scope must be "graph" or "receiver", not replica'));
  });
});

describe("refusals are counted per task round and per producer", () => {
  const noConstraints = (e: Envelope): void => {
    delete e["constraints"];
  };

  it("a resend under another hop.index does not start the count again", () => {
    const seen = createMemorySeenStore();
    deliver(seen, hop("round-1", ["concierge", "invoices"]));
    deliver(seen, hop("round-1", ["concierge", "invoices", "concierge"]));
    const routes = [3, 3, 4, 13, 0, 1, 2].map((index) => {
      const rejection = refused(deliver(seen, hop("round-1", ["concierge", "invoices", "concierge", "diagnostics"], (e) => ((e["hop"].index = index), noConstraints(e)))));
      return [index, rejection.route, rejection.attempt];
    });
    expect(routes).toEqual([
      [3, "repair", 1],
      [3, "escalate", 2],
      [4, "escalate", 3],
      [13, "escalate", 4],
      [0, "escalate", 5],
      [1, "escalate", 6],
      [2, "escalate", 7],
    ]);
  });

  it("a non-owner's forgeries count in its own count, and leave the owner its repair", () => {
    const seen = createMemorySeenStore();
    deliver(seen, hop("round-2", ["concierge", "invoices"]));
    const forged = refused(deliver(seen, hop("round-2", ["concierge", "invoices", "diagnostics"], (e) => (e["from_agent"] = { id: "concierge", role: "supervisor" }))));
    expect([forged.route, forged.attempt, forged.reasons.map((r) => r.rule)]).toEqual(["repair", 1, ["bad-hop-path", "not-owner"]]);
    const own = refused(deliver(seen, hop("round-2", ["concierge", "invoices", "concierge"], (e) => (e["artefacts"] = []))));
    expect([own.route, own.attempt]).toEqual(["repair", 1]);
  });

  it("an accepted hop starts a new round with no refusals (and stays quiet on a valid walk)", () => {
    const seen = createMemorySeenStore();
    expect(refused(deliver(seen, hop("round-3", ["concierge", "invoices"], noConstraints))).attempt).toBe(1);
    expect(deliver(seen, hop("round-3", ["concierge", "invoices"])).ok).toBe(true);
    expect(refused(deliver(seen, hop("round-3", ["concierge", "invoices", "concierge"], (e) => (e["artefacts"] = [])))).attempt).toBe(1);
    expect(deliver(seen, hop("round-3", ["concierge", "invoices", "concierge"])).ok).toBe(true);
  });

  it("deliveries over no edge of the graph write nothing and escalate, whatever producer they name", () => {
    const seen = createMemorySeenStore();
    deliver(seen, hop("round-4", ["concierge", "invoices"]));
    const strangers = ["mallory", "eve", "trudy"].map((id) => {
      const rejection = refused(deliver(seen, hop("round-4", ["concierge", "invoices", "diagnostics"], (e) => (e["from_agent"] = { id, role: "worker" }))));
      return [rejection.route, rejection.attempt];
    });
    expect(strangers).toEqual([
      ["escalate", null],
      ["escalate", null],
      ["escalate", null],
    ]);
    // Nothing was counted: the owner's first fault of the round is its first.
    const own = refused(deliver(seen, hop("round-4", ["concierge", "invoices", "concierge"], (e) => (e["artefacts"] = []))));
    expect([own.route, own.attempt]).toEqual(["repair", 1]);
  });

  it("holds one task's memory to the graph's agents + 1 counts, whatever hop.index the sender writes", () => {
    const seen = createMemorySeenStore();
    const claims: ClaimRequest[] = [];
    const spy = { claim: (request: ClaimRequest) => (claims.push(request), seen.claim(request)) };
    deliver(seen, hop("round-5", ["concierge", "invoices"]));
    for (let index = 100; index < 1100; index++) {
      const rejection = refused(accept(hop("round-5", ["concierge", "invoices"], (e) => (e["hop"].index = index)), { me: "invoices", seen: spy, now: () => T0 }));
      expect(rejection.attempt).toBe(index - 99);
    }
    // Every one of them landed in the concierge's count: the store was asked 1000 times, one count grew.
    expect(new Set(claims.map((c) => c.edge?.from ?? null))).toEqual(new Set(["concierge"]));
  });
});

describe("envelopes the store cannot key", () => {
  const strip = (edit: (e: Envelope) => void) => (e: Envelope): void => {
    delete e["constraints"];
    edit(e);
  };

  it.each([
    ["no handoff_id", (e: Envelope) => delete e["handoff_id"]],
    ["hop.index a string", (e: Envelope) => (e["hop"].index = "1")],
    ["hop.index 1.5", (e: Envelope) => (e["hop"].index = 1.5)],
    ["hop.index -1", (e: Envelope) => (e["hop"].index = -1)],
  ])("with %s, are counted: one repair, then a person", (_name, edit) => {
    const seen = createMemorySeenStore();
    const routes = [1, 2, 3].map(() => {
      const rejection = refused(deliver(seen, hop("loop-1", ["concierge", "invoices"], strip(edit))));
      return `${rejection.route}(${rejection.attempt})`;
    });
    expect(routes).toEqual(["repair(1)", "escalate(2)", "escalate(3)"]);
  });

  it("with no handoff_id, of an ended task: task-finished", () => {
    const seen = createMemorySeenStore();
    deliver(seen, hop("loop-2", ["concierge", "diagnostics"]));
    finish("loop-2", { me: "diagnostics", terminal: "ticket_closed", outcome: "complete", seen, now: () => T0 });
    const rejection = refused(deliver(seen, hop("loop-2", ["concierge", "diagnostics", "concierge"], (e) => delete e["handoff_id"])));
    expect([rejection.route, rejection.attempt, rejection.reasons.map((r) => r.rule)]).toEqual(["escalate", null, ["task-finished", "required"]]);
  });

  it("with no string task_id and a store, escalate: the refusal cannot be counted", async () => {
    const seen = createMemorySeenStore();
    for (const run of [accept, acceptAsync]) {
      const rejection = refused(await run(hop("x", ["concierge", "invoices"], (e) => (e["task_id"] = 42)), { me: "invoices", seen, now: () => T0 }));
      expect([rejection.route, rejection.attempt]).toEqual(["escalate", null]);
      expect(rejection.reasons).toEqual([
        { path: "/task_id", rule: "type", message: "must be of type string (values are never coerced)" },
        {
          path: "/task_id",
          rule: "untracked-task",
          message:
            "the store counts refusals per task_id, and this envelope has no string task_id: the refusal cannot be counted, so it goes to a person (escalate) rather than back for a repair that could loop",
        },
      ]);
    }
  });

  it("without a store, nothing changes: repair, attempt null, no untracked-task", () => {
    const rejection = refused(accept(hop("x", ["concierge", "invoices"], (e) => (e["task_id"] = 42)), { me: "invoices" }));
    expect([rejection.route, rejection.attempt, rejection.reasons.map((r) => r.rule)]).toEqual(["repair", null, ["type"]]);
  });

  it("at the hop limit, the graph's on_hop_limit still decides the route", () => {
    const rejection = refused(deliver(createMemorySeenStore(), hop("x", ["concierge", "invoices"], (e) => ((e["task_id"] = 42), (e["hop"].index = 14)))));
    expect([rejection.route, rejection.reasons.map((r) => r.rule)]).toEqual(["escalate", ["type", "hop-limit-reached", "bad-hop-path", "untracked-task"]]);
  });
});

describe("a reset is not a replay", () => {
  it("the owner resending an older hop after the task moved on is a reset, not a silent duplicate", () => {
    const seen = createMemorySeenStore();
    deliver(seen, hop("reset-1", ["concierge", "invoices"]));
    deliver(seen, hop("reset-1", ["concierge", "invoices", "concierge"]));
    const result = deliver(seen, hop("reset-1", ["concierge", "invoices"]));
    expect(result.duplicate).toBe(false);
    expect(refused(result).route).toBe("repair");
    expect(refused(result).reasons).toEqual([
      {
        path: "/hop/index",
        rule: "hop-reset",
        message: 'hop 1 of task "reset-1" goes back: hop 2 was accepted last, by "concierge", so the next hop is 3 (a counter that is reset disables the hop limit)',
      },
    ]);
  });

  it("the latest hop again under a fresh id is still a replay", () => {
    const seen = createMemorySeenStore();
    deliver(seen, hop("reset-2", ["concierge", "invoices"]));
    const replay = deliver(seen, hop("reset-2", ["concierge", "invoices"]));
    expect([replay.duplicate, refused(replay).route, refused(replay).reasons.map((r) => r.rule)]).toEqual([true, "discard", ["duplicate"]]);
  });
});

describe("a task starts at its first hop (graph scope)", () => {
  it.each(["case-1 ", "case-1\u200b", "CASE-1", "case\u20101", "brand-new-task"])("a look-alike or fresh task_id %j arriving at hop 3 is refused", (task) => {
    const seen = createMemorySeenStore();
    deliver(seen, hop("case-1", ["concierge", "invoices"]));
    const rejection = refused(deliver(seen, hop(task, ["concierge", "invoices", "concierge", "diagnostics"])));
    expect([rejection.route, rejection.attempt]).toEqual(["repair", 1]);
    expect(rejection.reasons).toEqual([
      {
        path: "/hop/index",
        rule: "hop-skipped",
        message: `hop 3 of task ${quoteUntrusted(task)} cannot be its first: no earlier hop of the task is recorded, and a task starts at hop 1 (a task forgotten after its idle TTL cannot continue either)`,
      },
    ]);
  });

  it("hop 0 of an unknown task is a reset to below the first hop", () => {
    // This graph's contracts require hop.path, and a path for hop 0 names no handoff: refused by content too.
    const rejection = refused(deliver(createMemorySeenStore(), hop("zero", ["concierge", "invoices"], (e) => ((e["hop"].index = 0), delete e["hop"].path))));
    expect(rejection.reasons).toEqual([
      { path: "/hop/path", rule: "required", message: 'missing required field "path"' },
      {
        path: "/hop/index",
        rule: "hop-reset",
        message: 'hop 0 of task "zero" goes back: no hop of the task is recorded, so its first hop is 1 (a counter that is reset disables the hop limit)',
      },
    ]);
  });

  it("a task forgotten after its idle TTL cannot continue", () => {
    const seen = createMemorySeenStore({ ttlMs: 1000 });
    deliver(seen, hop("idle", ["concierge", "invoices"]), T0);
    expect(deliver(seen, hop("idle", ["concierge", "invoices", "concierge"]), T0 + 999).ok).toBe(true);
    expect(refused(deliver(seen, hop("idle", ["concierge", "invoices", "concierge", "diagnostics"]), T0 + 1999)).reasons.map((r) => r.rule)).toEqual(["hop-skipped"]);
  });

  it("stays quiet for hop 1, and for a receiver-scoped store at any hop", () => {
    expect(deliver(createMemorySeenStore(), hop("first", ["concierge", "invoices"])).ok).toBe(true);
    expect(deliver(createMemorySeenStore({ scope: "receiver" }), hop("later", ["concierge", "invoices", "concierge", "diagnostics"])).ok).toBe(true);
  });
});

describe("only the owner ends a task; a task never handed on, only an entry agent (graph scope)", () => {
  it("a worker no one handed the task to cannot end it, and the entry's first hop goes on", () => {
    const seen = createMemorySeenStore();
    expect(finish("case-7", { me: "diagnostics", terminal: "ticket_closed", outcome: "complete", seen })).toEqual({
      ok: false,
      rule: "not-owner",
      owner: null,
      message: '"diagnostics" does not own task "case-7": no hop of it was accepted, so it is still with the entry agent that took it in: only an entry agent (concierge, front_desk) may end it',
    });
    expect(deliver(seen, hop("case-7", ["concierge", "invoices"])).ok).toBe(true);
  });

  it("nor after the task's only deliveries were refused", () => {
    const seen = createMemorySeenStore();
    deliver(seen, hop("case-8", ["concierge", "invoices"], (e) => delete e["constraints"]));
    expect(finish("case-8", { me: "diagnostics", terminal: "ticket_closed", outcome: "complete", seen })).toMatchObject({ ok: false, rule: "not-owner", owner: null });
  });

  it("an entry agent may end a task it never handed on; a receiver-scoped store lets any agent", () => {
    expect(finish("case-9", { me: "front_desk", terminal: "answered", outcome: "complete", seen: createMemorySeenStore(), now: () => T0 })).toEqual({
      ok: true,
      record: { task_id: "case-9", agent: "front_desk", terminal: "answered", outcome: "complete", ended_at: "2026-12-01T09:00:00.000Z", hop_index: null },
    });
    expect(finish("case-9", { me: "diagnostics", terminal: "ticket_closed", outcome: "complete", seen: createMemorySeenStore({ scope: "receiver" }) }).ok).toBe(true);
  });
});
