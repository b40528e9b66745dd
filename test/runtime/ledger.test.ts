/**
 * The task ledger through accept(): the attempts a producer might make to sneak a task past its
 * owner, loop the repair route or revive a finished task are each refused with a message naming
 * what went wrong; finish() misuse is a TypeError; the store's scope and expiry.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import type { AcceptResult, Refused } from "../../src/runtime/accept.js";
import type { FinishOptions } from "../../src/runtime/finish.js";
import { createMemorySeenStore, type ClaimRequest } from "../../src/runtime/seen-store.js";
import { checkedGraph, clone, projectRoot } from "../emit/helpers.js";

type Envelope = Record<string, any>;

const suite = join(projectRoot, "conformance", "ledger");
const graph = checkedGraph(readFileSync(join(suite, "graph.seam"), "utf8"), "ledger/graph.seam");
const { accept, acceptAsync, finish, finishAsync } = createGraphAccept(graph);
const base = JSON.parse(readFileSync(join(suite, "envelopes", "handoff.json"), "utf8")) as Envelope;
const ROLES: Record<string, string> = { concierge: "supervisor", invoices: "worker", diagnostics: "worker", shipping: "worker", front_desk: "peer", helper: "peer" };
const T0 = Date.parse("2026-12-01T09:00:00Z");

let ids = 0;
/** An envelope of task `task` along `path` (the last two entries are producer and receiver). */
function hop(task: string, path: string[], edit: (e: Envelope) => void = () => {}): Envelope {
  const envelope = clone(base);
  envelope["handoff_id"] = `7f3e2d1c-0b9a-4c8d-9e7f-${String(++ids).padStart(12, "0")}`;
  envelope["task_id"] = task;
  envelope["hop"] = { index: path.length - 1, limit: 14, path };
  const from = path[path.length - 2] as string;
  const to = path[path.length - 1] as string;
  envelope["from_agent"] = { id: from, role: ROLES[from] };
  envelope["to_agent"] = { id: to, role: ROLES[to] };
  edit(envelope);
  return envelope;
}

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
    expect(finish("case-5", { me: "diagnostics", terminal: "ticket_closed", outcome: "complete", seen })).toEqual({
      ok: false,
      rule: "task-finished",
      message: 'task "case-5" ended before, at 2026-12-01T09:00:01.000Z: "diagnostics" took terminal "ticket_closed" (complete)',
      record: { task_id: "case-5", agent: "diagnostics", terminal: "ticket_closed", outcome: "complete", ended_at: "2026-12-01T09:00:01.000Z", hop_index: 1 },
    });
  });

  it("ending a task someone else owns", async () => {
    const seen = createMemorySeenStore();
    deliver(seen, hop("case-6", ["concierge", "diagnostics"]));
    expect(await finishAsync("case-6", { me: "concierge", terminal: "resolved", outcome: "complete", seen })).toEqual({
      ok: false,
      rule: "not-owner",
      owner: "diagnostics",
      message: 'concierge does not own task "case-6": "diagnostics" accepted its last hop (1), so only it may end the task',
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
    // Hop 1 re-sent under a fresh id: a replay of the first hop, two hops back.
    expect(seen.claim(request({ hopIndex: 1 }))).toEqual({ outcome: "duplicate", of: "hop", holder: { handoffId: "k1", receiver: "b", at: 10 } });
    // Hop 2 for another receiver, from someone other than the owner d: two owners of hop 2.
    expect(seen.claim(request({ hopIndex: 2, producer: "b", receiver: "e", path: ["a", "b", "e"] }))).toEqual({
      outcome: "owner-conflict",
      owner: "c",
      attempt: 1,
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
