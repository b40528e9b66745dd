/**
 * Runs the language-neutral conformance suite (`conformance/`, format in its README.md) against
 * the in-memory `accept()`, `acceptAsync()` and the module `seam compile` emits, and against
 * `acceptAsync()` with the Redis store (a real redis-server; skipped with one line when absent).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { emitCompileOutput } from "../../src/emit/compile-output.js";
import type { AcceptanceRecord, AcceptOptions, AcceptResult, Acceptors } from "../../src/runtime/accept.js";
import type { FinishOptions, FinishVerdict } from "../../src/runtime/finish.js";
import type { JoinReport, JoinStateOptions } from "../../src/runtime/join-state.js";
import { commitAsync, releaseAsync } from "../../src/runtime/lease.js";
import { createMemorySeenStore, type SeenStore } from "../../src/runtime/seen-store.js";
import { checkedGraph, makeTempDir, removeTempDirs } from "../emit/helpers.js";
import { applyPatch, DEFAULT_NOW, optionsFor, suites, type Case, type Delivery, type FinishStep, type Pair } from "./conformance-suite.js";
import { useRedis } from "./redis-fixture.js";
import { redisAvailable } from "./redis-server.js";

function sortedPairs(pairs: readonly Pair[]): string[] {
  return pairs.map(([path, rule]) => JSON.stringify([path, rule])).sort();
}

function verdictOf(result: AcceptResult): Delivery["expect"] {
  const pairs = (reasons: readonly { path: string; rule: string }[]): Pair[] => reasons.map((r) => [r.path, r.rule]);
  return result.ok
    ? { ok: true, duplicate: false, route: result.record.route, reasons: [], warnings: pairs(result.record.warnings), attempt: null, messages: [], join: result.record.join }
    : {
        ok: false,
        duplicate: result.duplicate,
        route: result.rejection.route,
        reasons: pairs(result.rejection.reasons),
        warnings: [],
        attempt: result.rejection.attempt,
        messages: result.rejection.reasons.map((r) => [r.path, r.rule, r.message]),
        join: result.rejection.join,
      };
}

/** The verdict in the case's terms: `attempt`, `messages` and `join` are compared only where the case states them. */
function comparable(verdict: Delivery["expect"], stated: Delivery["expect"]): object {
  const { attempt, messages, join, ...rest } = verdict;
  return {
    ...rest,
    ...(stated.attempt !== undefined ? { attempt } : {}),
    ...(stated.messages !== undefined ? { messages: (messages ?? []).map((m) => JSON.stringify(m)).sort() } : {}),
    ...(stated.join !== undefined ? { join } : {}),
    reasons: sortedPairs(verdict.reasons),
    warnings: sortedPairs(verdict.warnings ?? []),
  };
}

/** The verdict in the case's terms: `message`, `branch` and `join` are compared only where the case states them. */
function finishVerdict(verdict: FinishVerdict, stated: FinishStep["expect"]): FinishStep["expect"] {
  if (verdict.ok) {
    return {
      ok: true,
      ...(stated.branch === undefined ? {} : { branch: verdict.record.branch }),
      ...(stated.join === undefined ? {} : { join: verdict.record.join }),
    };
  }
  return stated.message === undefined ? { ok: false, rule: verdict.rule } : { ok: false, rule: verdict.rule, message: verdict.message };
}

type Runner = (envelope: unknown, options: AcceptOptions) => AcceptResult | Promise<AcceptResult>;
type FinishRunner = (taskId: string, options: FinishOptions) => FinishVerdict | Promise<FinishVerdict>;
type JoinStateRunner = (taskId: string, options: JoinStateOptions) => JoinReport | Promise<JoinReport>;
interface Runners {
  readonly accept: Runner;
  readonly finish: FinishRunner;
  readonly joinState: JoinStateRunner;
}

/** A fresh store for one case; `ttlSeconds`, `scope` and `leaseMs` as the case says (undefined: one day, "graph", none). */
type StoreMaker = (ttlSeconds: number | undefined, scope: "graph" | "receiver", leaseMs: number | undefined) => Promise<SeenStore>;
const memoryStore: StoreMaker = async (ttlSeconds, scope, leaseMs) =>
  createMemorySeenStore({ ...(ttlSeconds === undefined ? {} : { ttlMs: ttlSeconds * 1000 }), scope, ...(leaseMs === undefined ? {} : { leaseMs }) });

async function runCase(run: Runners, value: Case, makeStore = memoryStore): Promise<void> {
  const seen = await makeStore(value.ttlSeconds, value.scope ?? "graph", value.leaseMs);
  // The records of accepted deliveries, by claimToken, for the settle steps.
  const records = new Map<string, AcceptanceRecord>();
  for (const [i, step] of value.deliveries.entries()) {
    const label = `step ${i}${step.note === undefined ? "" : `: ${step.note}`}`;
    if ("settle" in step) {
      const record = records.get(step.settle.token);
      if (record === undefined) throw new Error(`${label}: no accepted delivery has claimToken ${step.settle.token}`);
      const now = Date.parse(step.settle.now ?? DEFAULT_NOW);
      const settle = step.settle.action === "commit" ? commitAsync : releaseAsync;
      expect({ outcome: (await settle(record, { seen, now: () => now })).outcome }, label).toEqual(step.expect);
      continue;
    }
    if ("joinState" in step) {
      const now = Date.parse(step.joinState.now ?? DEFAULT_NOW);
      expect(await run.joinState(step.joinState.task, { seen, now: () => now }), label).toEqual(step.expect);
      continue;
    }
    if ("finish" in step) {
      const { task, me, terminal, outcome } = step.finish;
      const now = Date.parse(step.finish.now ?? DEFAULT_NOW);
      expect(finishVerdict(await run.finish(task, { me, terminal, outcome, seen, now: () => now }), step.expect), label).toEqual(step.expect);
      continue;
    }
    const envelope = step.patch === undefined ? step.envelope : applyPatch(step.envelope, step.patch);
    const result = await run.accept(envelope, optionsFor(step, seen));
    if (result.ok && step.claimToken !== undefined) records.set(step.claimToken, result.record);
    const got = verdictOf(result);
    const stated = { warnings: [], ...step.expect };
    expect(comparable(got, stated), label).toEqual(comparable(stated, stated));
  }
}

afterAll(removeTempDirs);
const redis = useRedis();
// The Redis store answers with promises: only acceptAsync and finishAsync take it.
const redisStore: StoreMaker = async (ttlSeconds, scope, leaseMs) =>
  (await redis.store({ ttlSeconds: ttlSeconds ?? 86_400, scope, ...(leaseMs === undefined ? {} : { leaseMs }) })) as unknown as SeenStore;

describe("conformance suite", () => {
  it("has suites with cases", () => {
    expect(suites.length).toBeGreaterThan(0);
    for (const suite of suites) expect(suite.cases.length, suite.name).toBeGreaterThan(0);
  });

  describe.each(suites)("$name", (suite) => {
    const graph = checkedGraph(suite.graphText, `${suite.name}/graph.seam`);
    const acceptors: Acceptors = createGraphAccept(graph);
    let emitted: Promise<Runners> | undefined;
    const loadEmitted = (): Promise<Runners> => {
      emitted ??= (async () => {
        const dir = makeTempDir(`conformance-${suite.name}`);
        let module = "";
        for (const file of emitCompileOutput([graph])) {
          writeFileSync(join(dir, file.path), file.content);
          if (file.path.endsWith(".mjs")) module = join(dir, file.path);
        }
        return (await import(module)) as Runners;
      })();
      return emitted;
    };

    it.each(suite.cases)("$name: accept()", async ({ value }) => {
      await runCase({ accept: acceptors.accept, finish: acceptors.finish, joinState: acceptors.joinState }, value);
    });
    it.each(suite.cases)("$name: acceptAsync()", async ({ value }) => {
      await runCase({ accept: acceptors.acceptAsync, finish: acceptors.finishAsync, joinState: acceptors.joinStateAsync }, value);
    });
    it.each(suite.cases)("$name: the emitted module's accept()", async ({ value }) => {
      await runCase(await loadEmitted(), value);
    });
    it.skipIf(!redisAvailable).each(suite.cases)("$name: acceptAsync() with the Redis store", async ({ value }) => {
      await runCase({ accept: acceptors.acceptAsync, finish: acceptors.finishAsync, joinState: acceptors.joinStateAsync }, value, redisStore);
    });
  });
});
