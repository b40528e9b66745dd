/**
 * Property: for random valid walks of the ledger suite's graph, delivered in order to one store,
 * every hop is accepted; forging any single hop (a wrong producer, a rewritten path entry, a reset
 * index) is refused by the ledger, and the walk then goes on as if the forgery never came. Run
 * with `accept()` and the memory store, and with `acceptAsync()` and the Redis store (a real
 * redis-server, fewer runs; skipped with one line when it is absent).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import type { AcceptResult } from "../../src/runtime/accept.js";
import { createMemorySeenStore, type AsyncSeenStore } from "../../src/runtime/seen-store.js";
import { checkedGraph, clone, projectRoot } from "../emit/helpers.js";
import { useRedis } from "./redis-fixture.js";
import { redisAvailable } from "./redis-server.js";

type Envelope = Record<string, any>;

const suite = join(projectRoot, "conformance", "ledger");
const graph = checkedGraph(readFileSync(join(suite, "graph.seam"), "utf8"), "ledger/graph.seam");
const { accept, acceptAsync } = createGraphAccept(graph);
const base = JSON.parse(readFileSync(join(suite, "envelopes", "handoff.json"), "utf8")) as Envelope;
const roles = new Map(graph.agents.map((agent) => [agent.id, agent.role]));
const numRuns = Number(process.env["SEAM_FUZZ_RUNS"] ?? 200);

/** A walk from an entry that respects every edge's max_rounds, steered by `choices`. */
function walkOf(choices: readonly number[]): string[] {
  const entries = graph.entries;
  const path = [entries[(choices[0] as number) % entries.length] as string];
  const taken = new Map<string, number>();
  for (const choice of choices.slice(1)) {
    const from = path[path.length - 1] as string;
    const next = graph.edges.filter((edge) => edge.from === from && (taken.get(`${edge.from}>${edge.to}`) ?? 0) < (edge.maxRounds ?? Infinity));
    if (next.length === 0) break;
    const edge = next[choice % next.length] as (typeof next)[number];
    taken.set(`${edge.from}>${edge.to}`, (taken.get(`${edge.from}>${edge.to}`) ?? 0) + 1);
    path.push(edge.to);
  }
  return path;
}

/** The envelope of hop `k` (1-based) of `walk`. */
function envelopeOf(task: string, walk: readonly string[], k: number, id: number): Envelope {
  const envelope = clone(base);
  const path = walk.slice(0, k + 1);
  const from = path[k - 1] as string;
  const to = path[k] as string;
  envelope["handoff_id"] = `3c4d5e6f-7a8b-4c9d-8e0f-${String(id).padStart(12, "0")}`;
  envelope["task_id"] = task;
  envelope["hop"] = { index: k, limit: 14, path };
  envelope["from_agent"] = { id: from, role: roles.get(from) };
  envelope["to_agent"] = { id: to, role: roles.get(to) };
  return envelope;
}

/** One way of delivering: a fresh store per walk, and the call that delivers to it. */
interface Ingest {
  readonly store: () => Promise<AsyncSeenStore>;
  readonly deliver: (seen: AsyncSeenStore, envelope: Envelope) => AcceptResult | Promise<AcceptResult>;
  readonly numRuns: number;
}

const memory: Ingest = {
  store: async () => createMemorySeenStore(),
  deliver: (seen, envelope) => accept(envelope, { me: envelope["to_agent"].id, seen: seen as ReturnType<typeof createMemorySeenStore>, now: () => 0 }),
  numRuns,
};

const rulesOf = (result: AcceptResult): string[] => (result.ok ? [] : result.rejection.reasons.map((r) => `${r.path} ${r.rule}`));

const walks = fc.array(fc.nat(1000), { minLength: 3, maxLength: 11 }).map(walkOf).filter((walk) => walk.length >= 3);

function walkProperties({ store, deliver, numRuns }: Ingest): void {
  it("accepts every hop of a valid walk delivered in order", async () => {
    await fc.assert(
      fc.asyncProperty(walks, async (walk) => {
        const seen = await store();
        for (let k = 1; k < walk.length; k++) expect(rulesOf(await deliver(seen, envelopeOf("task", walk, k, k)))).toEqual([]);
      }),
      { numRuns },
    );
  }, 60_000);

  it("refuses any single forged hop, and the walk goes on", async () => {
    const forgeries = fc.record({ walk: walks, at: fc.nat(), kind: fc.constantFrom("producer", "path", "reset"), pick: fc.nat() });
    await fc.assert(
      fc.asyncProperty(forgeries, async ({ walk, at, kind, pick }) => {
        // A hop after the first, so the ledger has a hop to compare with.
        const k = 2 + (at % (walk.length - 2));
        const seen = await store();
        for (let i = 1; i < k; i++) expect((await deliver(seen, envelopeOf("task", walk, i, i))).ok).toBe(true);
        const forged = envelopeOf("task", walk, k, 1000);
        const owner = walk[k - 1] as string;
        let expected: (rules: string[]) => boolean;
        if (kind === "producer") {
          const others = [...roles.keys()].filter((id) => id !== owner);
          const producer = others[pick % others.length] as string;
          forged["from_agent"] = { id: producer, role: roles.get(producer) };
          forged["hop"]["path"][k - 1] = producer;
          // A producer with no edge to the receiver cannot continue the task: refused before the ledger is asked.
          expected = (rules) => rules.includes("/from_agent/id not-owner") || rules.includes("/to_agent/id unknown-edge");
        } else if (kind === "path") {
          const i = pick % (k - 1);
          const others = [...roles.keys()].filter((id) => id !== walk[i]);
          forged["hop"]["path"][i] = others[pick % others.length];
          expected = (rules) => rules.includes(`/hop/path/${i} path-disagrees`);
        } else {
          forged["hop"]["index"] = pick % k;
          // The same step under an older number of its own is a replay; any other is a reset.
          expected = (rules) => rules.some((rule) => rule === "/hop/index hop-reset" || rule === "/hop/index duplicate" || rule === "/to_agent/id owner-conflict");
        }
        const rules = rulesOf(await deliver(seen, forged));
        expect(rules.length, "the forged hop is refused").toBeGreaterThan(0);
        expect(expected(rules), rules.join("; ")).toBe(true);
        for (let i = k; i < walk.length; i++) expect(rulesOf(await deliver(seen, envelopeOf("task", walk, i, i)))).toEqual([]);
      }),
      { numRuns },
    );
  }, 60_000);

  it("never routes more than the edge's repairs to repair per producer in one round, whatever hop.index a resend claims", async () => {
    const agents = [...roles.keys(), "mallory"];
    const resends = fc.array(fc.record({ producer: fc.nat(), index: fc.integer({ min: 0, max: 20 }), fault: fc.boolean() }), { minLength: 1, maxLength: 30 });
    await fc.assert(
      fc.asyncProperty(walks, fc.nat(), resends, async (walk, at, sent) => {
        const k = 1 + (at % (walk.length - 1));
        const seen = await store();
        for (let i = 1; i < k; i++) expect((await deliver(seen, envelopeOf("task", walk, i, i))).ok).toBe(true);
        // Every resend goes to the agent the walk hands hop k to, so they all await the same hop.
        const receiver = walk[k] as string;
        const repairRoutes = new Map<string | null, number>();
        for (const [n, { producer: pick, index, fault }] of sent.entries()) {
          const producer = agents[pick % agents.length] as string;
          const envelope = envelopeOf("task", walk, k, 2000 + n);
          envelope["hop"]["index"] = index;
          envelope["from_agent"] = { id: producer, role: roles.get(producer) ?? "worker" };
          if (fault) envelope["artefacts"] = "none";
          const result = await deliver(seen, envelope);
          // The owner's valid resend is accepted: the task awaits its next hop, a new round.
          if (result.ok) repairRoutes.clear();
          if (result.ok || result.rejection.route !== "repair") continue;
          const edge = graph.edges.find((e) => e.from === producer && e.to === receiver);
          const bucket = edge === undefined ? null : producer;
          const count = (repairRoutes.get(bucket) ?? 0) + 1;
          repairRoutes.set(bucket, count);
          expect(count, `${producer} -> ${receiver}`).toBeLessThanOrEqual(edge?.repairs ?? 1);
        }
      }),
      { numRuns },
    );
  }, 60_000);
}

describe("the ledger over random walks: accept() and the memory store", () => walkProperties(memory));

const redis = useRedis();
describe.skipIf(!redisAvailable)("the ledger over random walks: acceptAsync() and the Redis store", () => {
  walkProperties({
    store: () => redis.store(),
    deliver: (seen, envelope) => acceptAsync(envelope, { me: envelope["to_agent"].id, seen, now: () => 0 }),
    numRuns: Math.min(numRuns, 40),
  });

});
