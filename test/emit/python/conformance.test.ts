/**
 * The language-neutral conformance suite (`conformance/`, format in its README.md) run against
 * the Python module `seam compile --target python` writes, through accept() and accept_async():
 * the same verdict, route, set of (path, rule) and duplicates as the suite demands of every runtime.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkedGraph, projectRoot, removeTempDirs } from "../helpers.js";

import { createGraphAccept } from "../../../src/emit/graph-accept.js";
import { createMemorySeenStore } from "../../../src/runtime/seen-store.js";
import { applyPatch, DEFAULT_NOW, loadSuite, optionsFor, type Delivery, type FinishStep, type SettleStep } from "../../runtime/conformance-suite.js";
import type { AcceptanceRecord } from "../../../src/runtime/accept.js";
import { commit, release } from "../../../src/runtime/lease.js";
import { useRedis } from "../../runtime/redis-fixture.js";
import { redisAvailable } from "../../runtime/redis-server.js";
import { HERE, python as systemPython, runJson, writePythonModule } from "./python.js";

// With Redis, the .venv's Python (redis-py); else the system's (the runtime needs only the stdlib).
const VENV_PYTHON = join(projectRoot, ".venv", "bin", "python");
const venv = existsSync(VENV_PYTHON);
const redisReady = redisAvailable && venv;
if (redisAvailable && !venv) {
  if (process.env["CI"] === "true") throw new Error("the Python Redis conformance runs need .venv (see test/python/package.test.ts)");
  console.log("skipped: the Python Redis conformance runs need .venv with redis-py (python3 -m venv .venv && .venv/bin/pip install -r python/requirements-test.txt -e python)");
}
const python = venv ? VENV_PYTHON : systemPython;
const redis = useRedis();

afterAll(() => removeTempDirs());

type Pair = [string, string];
interface Verdict {
  ok: boolean;
  duplicate: boolean;
  route: string;
  reasons: Pair[];
  warnings?: Pair[];
  attempt?: number | null;
  messages?: [string, string, string][];
  join?: unknown;
  rule?: string;
  message?: string;
}
interface Case {
  deliveries: { note?: string; finish?: object; settle?: object; joinState?: object; expect: Verdict }[];
}

const suiteRoot = join(projectRoot, "conformance");
const suites = readdirSync(suiteRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** A verdict in the suite's terms (`attempt`, `messages`, `join` and a finish step's `message` only where the case states them); a settle step's as is. */
function comparable(verdict: Verdict, expected: Case["deliveries"][number]): object {
  if (expected.settle !== undefined || expected.joinState !== undefined) return verdict;
  if (expected.finish !== undefined) {
    const stated = expected.expect as Verdict & { branch?: unknown };
    if (verdict.ok) {
      const got = verdict as Verdict & { branch?: unknown };
      return { ok: true, ...(stated.branch === undefined ? {} : { branch: got.branch }), ...(stated.join === undefined ? {} : { join: got.join }) };
    }
    if (expected.expect.message !== undefined) return verdict;
    return { ok: verdict.ok, rule: verdict.rule };
  }
  const sorted = (pairs: readonly unknown[] | undefined) => (pairs ?? []).map((pair) => JSON.stringify(pair)).sort();
  const attempt = expected.expect.attempt === undefined ? {} : { attempt: verdict.attempt };
  const messages = expected.expect.messages === undefined ? {} : { messages: sorted(verdict.messages) };
  const join = expected.expect.join === undefined ? {} : { join: verdict.join };
  return { ok: verdict.ok, duplicate: verdict.duplicate, route: verdict.route, reasons: sorted(verdict.reasons), warnings: sorted(verdict.warnings), ...attempt, ...messages, ...join };
}

describe.skipIf(python === undefined).each(suites)("conformance suite %s in Python", (suite) => {
  const dir = join(suiteRoot, suite);
  const cases = Object.fromEntries(
    readdirSync(dir)
      .filter((file) => file.endsWith(".json"))
      .map((file) => [file.replace(/\.json$/, ""), JSON.parse(readFileSync(join(dir, file), "utf8")) as Case]),
  );
  const loaded = loadSuite(suite);
  const graph = checkedGraph(readFileSync(join(dir, "graph.seam"), "utf8"), `${suite}/graph.seam`);

  const check = (mode: string, redisUrl?: string) => {
    const module = writePythonModule(graph, `py-conformance-${suite}`);
    const answers = runJson<Record<string, Verdict[]>>(python as string, join(HERE, "conformance.py"), [module, dir, mode, ...(redisUrl === undefined ? [] : [redisUrl])], null);
    expect(Object.keys(answers).sort()).toEqual(Object.keys(cases).sort());
    for (const [name, value] of Object.entries(cases)) {
      value.deliveries.forEach((delivery, i) => {
        const label = `${name} delivery ${i}${delivery.note === undefined ? "" : `: ${delivery.note}`}`;
        expect(comparable(answers[name]?.[i] as Verdict, delivery), label).toEqual(comparable(delivery.expect, delivery));
      });
    }
  };
  it.each(["sync", "async"])("every case gives the suite's verdicts through %s accept", (mode) => check(mode));
  it("words every reason as the JavaScript runtime does, in its order", () => {
    const module = writePythonModule(graph, `py-conformance-${suite}`);
    const answers = runJson<Record<string, (Verdict & { messages?: string[][] })[]>>(python as string, join(HERE, "conformance.py"), [module, dir, "sync"], null);
    const js = createGraphAccept(graph);
    for (const { name, value } of loaded.cases) {
      const seen = createMemorySeenStore({
        ...(value.ttlSeconds === undefined ? {} : { ttlMs: value.ttlSeconds * 1000 }),
        scope: value.scope ?? "graph",
        ...(value.leaseMs === undefined ? {} : { leaseMs: value.leaseMs }),
      });
      const records = new Map<string, AcceptanceRecord>();
      value.deliveries.forEach((step, i) => {
        if ("settle" in step) {
          const { token, action, now } = (step as SettleStep).settle;
          (action === "commit" ? commit : release)(records.get(token) as AcceptanceRecord, { seen, now: () => Date.parse(now ?? DEFAULT_NOW) });
          return;
        }
        if ("joinState" in step) {
          // It may act on a join's policy: the JavaScript store must see it too.
          js.joinState(step.joinState.task, { seen, now: () => Date.parse(step.joinState.now ?? DEFAULT_NOW) });
          return;
        }
        if ("finish" in step) {
          const { task, me, terminal, outcome } = (step as FinishStep).finish;
          const now = Date.parse((step as FinishStep).finish.now ?? DEFAULT_NOW);
          js.finish(task, { me, terminal, outcome, seen, now: () => now });
          return;
        }
        const delivery = step as Delivery;
        const envelope = delivery.patch === undefined ? delivery.envelope : applyPatch(delivery.envelope, delivery.patch);
        const result = js.accept(envelope, optionsFor(delivery, seen));
        if (result.ok && delivery.claimToken !== undefined) records.set(delivery.claimToken, result.record);
        const reasons = result.ok ? result.record.warnings : result.rejection.reasons;
        expect(answers[name]?.[i]?.messages, `${name} delivery ${i}`).toEqual(reasons.map((r) => [r.path, r.rule, r.message]));
      });
    }
  });
  // redis-py's RedisSeenStore (sync) and AsyncRedisSeenStore (redis.asyncio), on a real Redis.
  it.skipIf(!redisReady).each(["sync", "async"])("every case gives the suite's verdicts through %s accept with the Redis store", (mode) =>
    check(mode, redis.server().url),
  );
});
