/**
 * Fan-outs at ingest, in the memory store and in the Redis store (a real redis-server, skipped
 * with one line when absent): each branch its own owner slot, branch budgets within what the
 * parent has left, the join taking each arrival once and moving the task on once, the parent
 * held while a branch is open, a late branch discarded. Every check fires once and stays quiet
 * once, asserting rule id, route, pointer and the exact message.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { toAgentInfos, toEdgeInfos, toGraphInfo } from "../../src/emit/graph-data.js";
import { addGraphSchemas } from "../../src/emit/schema-compiler.js";
import type { AcceptResult } from "../../src/runtime/accept.js";
import { createEnvelopeBuilder } from "../../src/runtime/envelope-builder.js";
import type { Budget, Envelope } from "../../src/runtime/envelope.js";
import { createMemorySeenStore, type AsyncSeenStore } from "../../src/runtime/seen-store.js";
import { checkedGraph, projectRoot } from "../emit/helpers.js";
import { useRedis } from "./redis-fixture.js";
import { redisAvailable } from "./redis-server.js";

const graph = checkedGraph(readFileSync(join(projectRoot, "conformance", "fan-out", "graph.seam"), "utf8"), "fan-out/graph.seam");
const { acceptAsync, finishAsync } = createGraphAccept(graph);
const edges = toEdgeInfos(graph, addGraphSchemas(graph).edgeContracts);
const builder = createEnvelopeBuilder({ graph: toGraphInfo(graph), agents: toAgentInfos(graph), edges });
const redis = useRedis();
const T0 = Date.parse("2026-12-01T09:00:00Z");

function budget(limit: number, consumed: number): Budget {
  return { limit: { tool_calls: limit }, consumed: { tool_calls: consumed } };
}

let ids = 0;
function handoffId(): string {
  return `7a6b5c4d-3e2f-4a1b-9c8d-${String(++ids).padStart(12, "0")}`;
}

/** The task's first hop, desk -> `to`, with the task's budget. */
function first(task: string, to: string, limit = 6, consumed = 2): Envelope {
  return builder.first({ me: "desk", to, action: "hands the tender on", taskId: task, constraints: ["bid in EUR"], goal: { statement: "answer tender 44", acceptance_criteria: ["a priced bid"] }, budget: budget(limit, consumed), handoffId: handoffId(), now: () => T0 });
}

/** The next hop; a hand-back (to the agent that delegated) says it is ready and hands over what it found. */
function next(received: Envelope, me: string, to: string, over?: Budget): Envelope {
  const back = edges.some((edge) => edge.from === me && edge.to === to && edge.kind === "return") ? { status: "ready" as const, artefacts: [{ ref: `artefact://tender/${me}`, media_type: "text/markdown", role: "supporting" as const }] } : {};
  return builder.next(received, { me, to, action: `${me} works`, ...back, ...(over === undefined ? {} : { budget: over }), handoffId: handoffId(), now: () => T0 });
}

interface Verdict {
  readonly ok: boolean;
  readonly route: string;
  readonly reasons: readonly { path: string; rule: string; message: string }[];
}

function verdict(result: AcceptResult): Verdict {
  return result.ok ? { ok: true, route: result.record.route, reasons: [] } : { ok: false, route: result.rejection.route, reasons: result.rejection.reasons };
}

const stores: [string, () => Promise<AsyncSeenStore>][] = [["the memory store", async () => createMemorySeenStore()]];
if (redisAvailable) stores.push(["the Redis store", () => redis.store()]);

describe.each(stores)("fan-outs in %s", (_name, makeStore) => {
  async function deliver(seen: AsyncSeenStore, envelope: Envelope, at = T0): Promise<AcceptResult> {
    return acceptAsync(envelope, { me: envelope.to_agent.id, seen, now: () => at });
  }

  /** desk -> lead, then lead fans out to pricing, legal and tech with `shares` tool calls each. */
  async function fanOut(seen: AsyncSeenStore, task: string, shares: readonly (number | undefined)[]): Promise<{ lead: Envelope; branches: Envelope[]; results: Verdict[] }> {
    const lead = first(task, "lead");
    expect((await deliver(seen, lead)).ok).toBe(true);
    const branches = ["pricing", "legal", "tech"].map((to, i) => {
      const share = shares[i];
      return next(lead, "lead", to, share === undefined ? { limit: {}, consumed: { tool_calls: 0 } } : budget(share, 0));
    });
    const results: Verdict[] = [];
    for (const envelope of branches) results.push(verdict(await deliver(seen, envelope)));
    return { lead, branches, results };
  }

  it("accepts three parallel delegations of one hop as three owners, each in its own branch", async () => {
    const seen = await makeStore();
    const { branches, results } = await fanOut(seen, "tender-44", [2, 1, 1]);
    expect(branches.map((b) => b.hop.branch)).toEqual(["bids/pricing", "bids/legal", "bids/tech"]);
    expect(results).toEqual([0, 1, 2].map(() => ({ ok: true, route: "proceed", reasons: [] })));
  });

  it("refuses a branch whose limit overspends what the parent has left (budget-overcommitted), and one that drops the limit", async () => {
    const seen = await makeStore();
    const { results } = await fanOut(seen, "tender-45", [2, 2, 1]);
    expect(results[0]?.ok && results[1]?.ok).toBe(true);
    expect(results[2]).toEqual({
      ok: false,
      route: "repair",
      reasons: [
        {
          path: "/budget/limit/tool_calls",
          rule: "budget-overcommitted",
          message:
            "tool_calls: branch bids/tech asks for a limit of 1, but at hop 1 the task had 4 left (6 limit, 2 consumed) and its other branches hold 4 of it: the branches' limits must fit in what the parent has left",
        },
      ],
    });
    const unlimited = await fanOut(seen, "tender-46", [1, 1, undefined]);
    expect(unlimited.results[2]?.reasons).toEqual([
      {
        path: "/budget/limit/tool_calls",
        rule: "budget-overcommitted",
        message: "tool_calls: branch bids/tech sets no limit, but hop 1 of the task set a limit of 6 (2 consumed): each branch takes a share of what is left",
      },
    ]);
  });

  it("refuses a delegation whose hop.branch is refused for its branch alone, not for a spend counted from 0 against the parent's", async () => {
    const seen = await makeStore();
    const lead = first("tender-47", "lead");
    expect((await deliver(seen, lead)).ok).toBe(true);
    // A branch's own budget (runtime-js.md): a share of the 4 calls left, its spend from 0.
    const pricing = next(lead, "lead", "pricing", budget(2, 0));
    const { branch: _, ...bare } = pricing.hop;
    const refused = [bare, { ...pricing.hop, branch: "bids/legal" }, { ...pricing.hop, branch: 7 }];
    const results: Verdict[] = [];
    for (const hop of refused) results.push(verdict(await deliver(seen, { ...pricing, handoff_id: handoffId(), hop } as Envelope)));
    // One repair for the producer, then a person (bounded repair), each for the branch alone.
    expect(results.map((r) => [r.route, r.reasons.map((reason) => [reason.path, reason.rule])])).toEqual([
      ["repair", [["/hop/branch", "branch-mismatch"]]],
      ["escalate", [["/hop/branch", "branch-mismatch"]]],
      ["escalate", [["/hop/branch", "type"]]],
    ]);
    // Repaired, it opens its branch; a hop inside the branch is held to the branch's own spend.
    expect(verdict(await deliver(seen, pricing))).toEqual({ ok: true, route: "proceed", reasons: [] });
    const toAnalyst = next(pricing, "pricing", "analyst", budget(2, 1));
    expect(verdict(await deliver(seen, toAnalyst))).toEqual({ ok: true, route: "proceed", reasons: [] });
    expect(verdict(await deliver(seen, next(toAnalyst, "analyst", "pricing", budget(2, 0))))).toEqual({
      ok: false,
      route: "repair",
      reasons: [{ path: "/budget/consumed/tool_calls", rule: "budget-consumed-decreased", message: "tool_calls: 0 consumed is less than the 1 reported at hop 3; spend never goes backwards" }],
    });
  });

  it("holds the task at an all-join until every branch is back, refusing the parent's next hop meanwhile, then goes on once from the longest branch with the branches' spend added back", async () => {
    const seen = await makeStore();
    const { branches } = await fanOut(seen, "tender-47", [2, 1, 1]);
    const [pricing, legal, tech] = branches as [Envelope, Envelope, Envelope];
    // pricing's branch takes three hops of its own (it asks an analyst): it comes back the longest.
    const asked = next(pricing, "pricing", "analyst", budget(2, 1));
    const answered = next(asked, "analyst", "pricing", budget(2, 1));
    expect((await deliver(seen, asked)).ok && (await deliver(seen, answered)).ok).toBe(true);
    const pricingBack = next(answered, "pricing", "lead", budget(2, 1));
    const legalBack = next(legal, "legal", "lead", budget(1, 0));
    const first1 = await deliver(seen, pricingBack);
    expect(verdict(first1)).toEqual({ ok: true, route: "held", reasons: [] });
    expect(first1.ok && first1.record.join).toEqual({ agent: "lead", arrived: ["bids/pricing"], waiting: ["bids/legal", "bids/tech"], fired: false, hop: null, consumed: null });
    expect(first1.ok && first1.record.branch).toBe("bids/pricing");
    expect(verdict(await deliver(seen, legalBack))).toEqual({ ok: true, route: "held", reasons: [] });
    // The parent's next hop while tech is out.
    const early = builder.join([pricingBack, legalBack], { me: "lead", to: "desk", action: "answers", status: "ready", handoffId: handoffId(), now: () => T0 });
    expect(verdict(await deliver(seen, early))).toEqual({
      ok: false,
      route: "repair",
      reasons: [
        {
          path: "/hop",
          rule: "branch-open",
          message: 'task "tender-47" waits at the join of "lead" for branch "bids/tech": no hop outside a branch, nor the task\'s end, until the join fires (a hop inside a branch names it in hop.branch)',
        },
      ],
    });
    const techBack = next(tech, "tech", "lead", budget(1, 0));
    const fired = await deliver(seen, techBack);
    expect(verdict(fired)).toEqual({ ok: true, route: "proceed", reasons: [] });
    expect(fired.ok && fired.record.join).toEqual({ agent: "lead", arrived: ["bids/pricing", "bids/legal", "bids/tech"], waiting: [], fired: true, hop: 5, consumed: { tool_calls: 3 } });
    // Spend not added back is refused; with it, the task goes on from the join.
    const hidden = builder.join([pricingBack, legalBack, techBack], { me: "lead", to: "desk", action: "answers", status: "ready", budget: budget(6, 2), handoffId: handoffId(), now: () => T0 });
    expect(verdict(await deliver(seen, hidden)).reasons.map((r) => [r.rule, r.path, r.message])).toEqual([
      ["budget-consumed-decreased", "/budget/consumed/tool_calls", "tool_calls: 2 consumed is less than the 3 reported at hop 5; spend never goes backwards"],
    ]);
    const onward = builder.join([pricingBack, legalBack, techBack], { me: "lead", to: "desk", action: "answers", status: "ready", parent: first("x", "lead"), handoffId: handoffId(), now: () => T0 });
    expect(onward.hop).toEqual({ index: 6, limit: graph.hopLimit.value, path: ["desk", "lead", "pricing", "analyst", "pricing", "lead", "desk"] });
    expect(onward.budget).toEqual(budget(6, 3));
    expect(verdict(await deliver(seen, onward))).toEqual({ ok: true, route: "proceed", reasons: [] });
  });

  it("takes each arrival once: a replay is a duplicate, a later hop of an arrived branch is late", async () => {
    const seen = await makeStore();
    const { branches } = await fanOut(seen, "tender-48", [2, 1, 1]);
    const asked = next(branches[0] as Envelope, "pricing", "analyst", budget(2, 1));
    const answered = next(asked, "analyst", "pricing", budget(2, 1));
    const back = next(answered, "pricing", "lead", budget(2, 1));
    for (const envelope of [asked, answered, back]) expect((await deliver(seen, envelope)).ok).toBe(true);
    const again = await deliver(seen, { ...back, handoff_id: handoffId() });
    expect(again.ok === false && again.duplicate && again.rejection.reasons.map((r) => r.rule)).toEqual(["duplicate"]);
    // pricing asks its analyst again after its branch reached the join.
    const stale = next(answered, "pricing", "analyst", budget(2, 1));
    expect(verdict(await deliver(seen, stale))).toEqual({
      ok: false,
      route: "discard",
      reasons: [{ path: "/hop/branch", rule: "branch-late", message: 'branch bids/pricing of task "tender-48" reached the join of "lead" at hop 5 already: a join takes each branch once' }],
    });
  });

  it("moves an any-join on with the first arrival, and discards the late branch with a clear reason", async () => {
    const seen = await makeStore();
    const scout = first("quote-9", "scout");
    expect((await deliver(seen, scout)).ok).toBe(true);
    const north = next(scout, "scout", "north", budget(2, 0));
    const south = next(scout, "scout", "south", budget(2, 0));
    expect((await deliver(seen, north)).ok && (await deliver(seen, south)).ok).toBe(true);
    const fired = await deliver(seen, next(north, "north", "scout", budget(2, 1)));
    expect(verdict(fired)).toEqual({ ok: true, route: "proceed", reasons: [] });
    expect(fired.ok && fired.record.join?.waiting).toEqual(["quotes/south"]);
    expect(verdict(await deliver(seen, next(south, "south", "scout", budget(2, 1))))).toEqual({
      ok: false,
      route: "discard",
      reasons: [
        {
          path: "/hop/branch",
          rule: "branch-late",
          message: 'branch quotes/south of task "quote-9" is late: the join of "scout" fired at hop 3 on branch "quotes/north", and the task went on without it',
        },
      ],
    });
  });

  it("refuses a hop in a branch the task never opened, and a branch delegated twice (branch-unknown)", async () => {
    const seen = await makeStore();
    const lead = first("tender-49", "lead");
    expect((await deliver(seen, lead)).ok).toBe(true);
    const pricing = next(lead, "lead", "pricing", budget(1, 0));
    // Delivered to nobody: pricing's answer names a branch the ledger never opened.
    expect(verdict(await deliver(seen, next(pricing, "pricing", "lead", budget(1, 0))))).toEqual({
      ok: false,
      route: "repair",
      reasons: [{ path: "/hop/branch", rule: "branch-unknown", message: 'task "tender-49" has no open branch bids/pricing: a branch opens with its fan-out\'s delegation lead -> pricing' }],
    });
    expect((await deliver(seen, pricing)).ok).toBe(true);
    expect((await deliver(seen, next(pricing, "pricing", "lead", budget(1, 0)))).ok).toBe(true);
    const twice = next(lead, "lead", "pricing", budget(1, 0));
    expect(verdict(await deliver(seen, twice))).toEqual({
      ok: false,
      route: "repair",
      reasons: [{ path: "/hop/branch", rule: "branch-unknown", message: 'branch bids/pricing of task "tender-49" was opened at hop 2 already: a fan-out opens each branch once' }],
    });
  });

  it("refuses the task's end while the join waits, naming the branches", async () => {
    const seen = await makeStore();
    const scout = first("quote-10", "scout");
    expect((await deliver(seen, scout)).ok).toBe(true);
    expect((await deliver(seen, next(scout, "scout", "north", budget(2, 0)))).ok).toBe(true);
    const early = await finishAsync("quote-10", { me: "scout", terminal: "no_quote", outcome: "failed", seen, now: () => T0 });
    expect(early).toEqual({
      ok: false,
      rule: "branch-open",
      missing: ["quotes/north", "quotes/south"],
      message: 'task "quote-10" waits at the join of "scout" for branches "quotes/north" and "quotes/south": no hop outside a branch, nor the task\'s end, until the join fires (a hop inside a branch names it in hop.branch)',
    });
  });
});

describe("hop.branch against the graph (branch-mismatch)", () => {
  const seen = createMemorySeenStore();
  const lead = first("tender-60", "lead");
  const pricing = next(lead, "lead", "pricing", budget(1, 0));

  function reasonsOf(envelope: unknown): [string, string, string][] {
    const result = createGraphAccept(graph).accept(envelope, { me: (envelope as Envelope).to_agent.id });
    return result.ok ? [] : result.rejection.reasons.map((r) => [r.path, r.rule, r.message]);
  }

  it("stays quiet for a branch's own id, and for a hop outside any branch", () => {
    expect(reasonsOf(pricing)).toEqual([]);
    expect(reasonsOf(lead)).toEqual([]);
    expect(seen).toBeDefined();
  });

  it("fires for a fan-out edge without hop.branch, with another branch's, and for an id the graph lacks", () => {
    const { branch: _, ...bare } = pricing.hop;
    expect(reasonsOf({ ...pricing, hop: bare })).toEqual([["/hop/branch", "branch-mismatch", "lead -> pricing is branch bids/pricing of fan-out bids: hop.branch must say bids/pricing"]]);
    expect(reasonsOf({ ...pricing, hop: { ...pricing.hop, branch: "bids/legal" } })).toEqual([["/hop/branch", "branch-mismatch", 'says "bids/legal", but lead -> pricing is branch bids/pricing of fan-out bids']]);
    const back = next(pricing, "pricing", "lead", budget(1, 0));
    expect(reasonsOf({ ...back, hop: { ...back.hop, branch: "bids/nobody" } })).toEqual([
      ["/hop/branch", "branch-mismatch", '"bids/nobody" is no branch of graph tender; its branches are bids/pricing, bids/legal, bids/tech, quotes/north, quotes/south'],
    ]);
  });
});

describe("joinState: a service's question about a task's join", () => {
  const { joinState, joinStateAsync } = createGraphAccept(graph);

  it("answers none for a task the store does not know, or one with no fan-out", () => {
    expect(joinState("never-seen", { seen: createMemorySeenStore(), now: () => T0 })).toEqual({ state: "none" });
  });

  it("refuses a misuse with a TypeError that says what to do", async () => {
    const noJoinState = { claim: () => ({ outcome: "noted" as const }) };
    expect(() => joinState("t", { seen: noJoinState as never })).toThrow(
      "joinState(taskId, options): options.seen must be the store accept() claims on, with a joinState(request) method, such as createMemorySeenStore()",
    );
    expect(() => joinState("", { seen: createMemorySeenStore() })).toThrow("joinState(taskId, options): taskId must be the task_id of the task, a non-empty string");
    expect(() => joinState("t", { seen: createMemorySeenStore(), later: 1 } as never)).toThrow('joinState(taskId, options): unknown option "later"; the options are seen and now');
    const promising = { claim: () => ({ outcome: "noted" as const }), joinState: async () => ({ state: "none" as const }) };
    expect(() => joinState("t", { seen: promising as never })).toThrow(
      "joinState(taskId, options): options.seen.joinState returned a promise: use joinStateAsync with an asynchronous store",
    );
    await expect(joinStateAsync("t", { seen: promising as unknown as AsyncSeenStore })).resolves.toEqual({ state: "none" });
    const odd = { claim: () => ({ outcome: "noted" as const }), joinState: () => ({ state: "asleep" }) };
    expect(() => joinState("t", { seen: odd as never })).toThrow('joinState(taskId, options): options.seen.joinState returned an unknown state "asleep"');
  });
});

describe("joinEnvelope without a parent (a fan-out at the entry, before the task had a budget)", () => {
  /** lead's branches to pricing and legal, each back at lead with `back` as its budget. */
  function arrivals(pricing: Budget, legal: Budget): Envelope[] {
    const lead = first("tender-60", "lead");
    return [
      next(next(lead, "lead", "pricing", pricing), "pricing", "lead", pricing),
      next(next(lead, "lead", "legal", legal), "legal", "lead", legal),
    ];
  }

  it("gives the task its arrivals' limits added up, with their spend, as the ledger records at the join", () => {
    const joined = builder.join(arrivals(budget(2, 1), budget(1, 0)), { me: "lead", to: "desk", action: "answers", status: "ready", handoffId: handoffId(), now: () => T0 });
    expect(joined.budget).toEqual({ limit: { tool_calls: 3 }, consumed: { tool_calls: 1 } });
  });

  it("stops its sums at 2^53 - 1, the largest count an envelope carries, as the ledger does", () => {
    const most = Number.MAX_SAFE_INTEGER;
    const joined = builder.join(arrivals({ limit: { tokens: most }, consumed: { tokens: 2 ** 52 + 1 } }, { limit: { tokens: most }, consumed: { tokens: 2 ** 52 + 2 } }), {
      me: "lead",
      to: "desk",
      action: "answers",
      status: "ready",
      handoffId: handoffId(),
      now: () => T0,
    });
    expect(joined.budget).toEqual({ limit: { tokens: most }, consumed: { tokens: most } });
  });

  it("gives no limit of a counter some arrival left unlimited", () => {
    const pricing: Budget = { limit: { tool_calls: 2, tokens: 900 }, consumed: { tool_calls: 1, tokens: 300 } };
    const joined = builder.join(arrivals(pricing, budget(1, 0)), { me: "lead", to: "desk", action: "answers", status: "ready", handoffId: handoffId(), now: () => T0 });
    expect(joined.budget).toEqual({ limit: { tool_calls: 3 }, consumed: { tool_calls: 1, tokens: 300 } });
  });
});
