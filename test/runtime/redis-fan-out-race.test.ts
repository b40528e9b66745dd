/**
 * Fan-outs in the Redis store under racing replicas (separate OS processes, each an agent
 * service calling the emitted module's acceptAsync() at the same moment for the same tasks): two
 * branches delegated at once are both owners; two arrivals at an all-join at once, exactly one
 * fires it; two arrivals at an any-join at once, one fires it and the other is late; a join's
 * deadline noticed at once by an arrival, a timer's joinState or the join agent's policy terminal
 * on two replicas, and its policy acts exactly once. A real
 * redis-server; skipped with one line naming the package when it is absent.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitCompileOutput } from "../../src/emit/compile-output.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { toAgentInfos, toEdgeInfos, toGraphInfo } from "../../src/emit/graph-data.js";
import { addGraphSchemas } from "../../src/emit/schema-compiler.js";
import { createEnvelopeBuilder } from "../../src/runtime/envelope-builder.js";
import type { Budget, Envelope } from "../../src/runtime/envelope.js";
import { createRedisSeenStore, redisKey } from "../../src/runtime/redis-store.js";
import { checkedGraph, makeTempDir, projectRoot, removeTempDirs } from "../emit/helpers.js";
import { raceUntilBothWin } from "./race-rounds.js";
import { useRedis } from "./redis-fixture.js";
import { redisAvailable } from "./redis-server.js";

interface Answer {
  readonly ok: boolean;
  readonly rules?: string[];
  readonly route?: string;
  readonly fired?: boolean;
  readonly state?: string;
  readonly acts?: boolean;
}

/** A racer's step: a handoff, a terminal action or a join-state query, at its own clock (ms) when `now` is given. */
type Step =
  | { readonly envelope: Envelope; readonly now?: number }
  | { readonly finish: string; readonly me: string; readonly terminal: string; readonly outcome: string; readonly now?: number }
  | { readonly joinState: string; readonly now?: number };

const WORKER = fileURLToPath(new URL("./redis-ledger-worker.mjs", import.meta.url));
const TASKS = 100;
const graph = checkedGraph(readFileSync(join(projectRoot, "conformance", "fan-out", "graph.seam"), "utf8"), "fan-out/graph.seam");
const { acceptAsync } = createGraphAccept(graph);
const edges = toEdgeInfos(graph, addGraphSchemas(graph).edgeContracts);
const builder = createEnvelopeBuilder({ graph: toGraphInfo(graph), agents: toAgentInfos(graph), edges });
const redis = useRedis();
let dir = "";
let module = "";

beforeAll(() => {
  dir = makeTempDir("redis-fan-out-race");
  for (const file of emitCompileOutput([graph])) {
    writeFileSync(join(dir, file.path), file.content);
    if (file.path.endsWith(".mjs")) module = join(dir, file.path);
  }
});
afterAll(removeTempDirs);

const budget = (limit: number, consumed: number): Budget => ({ limit: { tool_calls: limit }, consumed: { tool_calls: consumed } });
let ids = 0;
const handoffId = (): string => `5b4a3928-1706-4f5e-8d4c-${String(++ids).padStart(12, "0")}`;

function first(task: string, to: string): Envelope {
  return builder.first({ me: "desk", to, action: "hands on", taskId: task, constraints: ["bid in EUR"], goal: { statement: "answer", acceptance_criteria: ["an answer"] }, budget: budget(8, 0), handoffId: handoffId() });
}

function next(received: Envelope, me: string, to: string, over: Budget): Envelope {
  const back = edges.some((e) => e.from === me && e.to === to && e.kind === "return") ? { status: "ready" as const, artefacts: [{ ref: `artefact://race/${me}`, media_type: "text/plain", role: "supporting" as const }] } : {};
  return builder.next(received, { me, to, action: "works", ...back, budget: over, handoffId: handoffId() });
}

/** Runs one racer per list of envelopes, all starting at the same moment; their answers, and whether every racer started on time. */
async function race(prefix: string, racers: (Envelope | Step)[][]): Promise<{ answers: Answer[][]; onTime: boolean }> {
  const startAt = Date.now() + 2000;
  const runs = await Promise.all(
    racers.map((envelopes, r) => {
      const file = join(dir, `${prefix}-${r}.json`);
      const steps = envelopes.map((item) => {
        const step: Step = "envelope" in item || "finish" in item || "joinState" in item ? item : { envelope: item };
        return "envelope" in step ? { ...step, me: step.envelope.to_agent.id } : step;
      });
      writeFileSync(file, JSON.stringify({ url: redis.server().url, prefix, module, startAt, seed: r, steps }));
      return new Promise<{ late: number; answers: Answer[] }>((resolve, reject) => {
        const child = spawn(process.execPath, [WORKER, file], { stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        child.stdout.on("data", (c: Buffer) => (out += c.toString()));
        child.stderr.on("data", (c: Buffer) => (err += c.toString()));
        child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`racer ${r} exited ${code}: ${err}`))));
      });
    }),
  );
  return { answers: runs.map((run) => run.answers), onTime: runs.every((run) => run.late < 20) };
}

/** The fan-out Redis holds for `task`: its branches in opening order, its arrivals, whether it fired. */
async function fanOf(prefix: string, task: string): Promise<{ order: string[]; arr: string[]; fired: boolean }> {
  const fields = await (await redis.connect()).hGetAll(redisKey(prefix, "t", task));
  const fan = JSON.parse(fields["fan"] ?? "null") as { order: string[]; arr: string[] | Record<string, never>; fired: unknown } | null;
  if (fan === null) return { order: [], arr: [], fired: false };
  return { order: fan.order, arr: Array.isArray(fan.arr) ? fan.arr : [], fired: fan.fired !== false };
}

describe.skipIf(!redisAvailable)("fan-outs in Redis under racing replicas", () => {
  it("two branches of one fan-out delegated at once: both are owners of their branches", async () => {
    const prefix = "race-branches";
    const seen = createRedisSeenStore(await redis.connect(), { prefix });
    const tasks = Array.from({ length: TASKS }, (_, t) => `${prefix}-${t}`);
    const scouts = tasks.map((task) => first(task, "scout"));
    for (const scout of scouts) expect((await acceptAsync(scout, { me: "scout", seen })).ok).toBe(true);
    const { answers } = await race(prefix, [scouts.map((s) => next(s, "scout", "north", budget(4, 0))), scouts.map((s) => next(s, "scout", "south", budget(4, 0)))]);
    for (const [t, task] of tasks.entries()) {
      expect(answers.map((a) => a[t]), task).toEqual([{ ok: true }, { ok: true }]);
      const fan = await fanOf(prefix, task);
      expect([...fan.order].sort(), task).toEqual(["quotes/north", "quotes/south"]);
    }
  }, 60_000);

  it("two arrivals at an all-join at once: the join fires exactly once, the other arrival is held", async () => {
    await raceUntilBothWin(async (attempt) => {
      const prefix = `race-all-${attempt}`;
      const seen = createRedisSeenStore(await redis.connect(), { prefix });
      const tasks = Array.from({ length: TASKS }, (_, t) => `${prefix}-${t}`);
      const arrivals: [Envelope, Envelope][] = [];
      for (const task of tasks) {
        const lead = first(task, "lead");
        const [pricing, legal, tech] = (["pricing", "legal", "tech"] as const).map((to) => next(lead, "lead", to, budget(2, 0))) as [Envelope, Envelope, Envelope];
        for (const envelope of [lead, pricing, legal, tech]) expect((await acceptAsync(envelope, { me: envelope.to_agent.id, seen })).ok).toBe(true);
        expect(await acceptAsync(next(tech, "tech", "lead", budget(2, 1)), { me: "lead", seen })).toMatchObject({ ok: true, record: { route: "held" } });
        arrivals.push([next(pricing, "pricing", "lead", budget(2, 1)), next(legal, "legal", "lead", budget(2, 1))]);
      }
      const { answers, onTime } = await race(prefix, [arrivals.map((a) => a[0]), arrivals.map((a) => a[1])]);
      const wins: [number, number] = [0, 0];
      for (const [t, task] of tasks.entries()) {
        const pair = answers.map((a) => a[t] as Answer);
        expect(pair.every((answer) => answer.ok), task).toBe(true);
        expect(pair.filter((answer) => answer.fired).length, task).toBe(1);
        expect(pair.map((answer) => answer.route).sort(), task).toEqual(["held", "proceed"]);
        wins[pair[0]?.fired === true ? 0 : 1]++;
        expect(await fanOf(prefix, task)).toMatchObject({ fired: true });
      }
      return { wins, onTime };
    });
  }, 180_000);

  it("two arrivals at an any-join at once: one fires it, the other is late and discarded", async () => {
    await raceUntilBothWin(async (attempt) => {
      const prefix = `race-any-${attempt}`;
      const seen = createRedisSeenStore(await redis.connect(), { prefix });
      const tasks = Array.from({ length: TASKS }, (_, t) => `${prefix}-${t}`);
      const arrivals: [Envelope, Envelope][] = [];
      for (const task of tasks) {
        const scout = first(task, "scout");
        const north = next(scout, "scout", "north", budget(4, 0));
        const south = next(scout, "scout", "south", budget(4, 0));
        for (const envelope of [scout, north, south]) expect((await acceptAsync(envelope, { me: envelope.to_agent.id, seen })).ok).toBe(true);
        arrivals.push([next(north, "north", "scout", budget(4, 1)), next(south, "south", "scout", budget(4, 1))]);
      }
      const { answers, onTime } = await race(prefix, [arrivals.map((a) => a[0]), arrivals.map((a) => a[1])]);
      const wins: [number, number] = [0, 0];
      for (const [t, task] of tasks.entries()) {
        const pair = answers.map((a) => a[t] as Answer);
        const winner = pair.findIndex((answer) => answer.ok);
        expect(pair.filter((answer) => answer.ok), task).toEqual([{ ok: true, route: "proceed", fired: true }]);
        expect(pair[1 - winner], task).toEqual({ ok: false, rules: ["branch-late"] });
        wins[winner as 0 | 1]++;
        expect((await fanOf(prefix, task)).arr, task).toEqual([winner === 0 ? "quotes/north" : "quotes/south"]);
      }
      return { wins, onTime };
    });
  }, 180_000);

  // Join deadlines: every task's fan-out opens at T0 (the ledger's clock is the deliveries'), so
  // its join's deadline is T0 plus its within, whatever the wall clock says.
  const T0 = Date.parse("2026-12-01T09:00:00Z");
  const HOUR = 3_600_000;

  /** `tasks` fanned out by lead at T0 (an all-join within an hour, otherwise escalate), legal back; tech's answer, not delivered. */
  async function leadWaiting(prefix: string, tasks: readonly string[]): Promise<Envelope[]> {
    const seen = createRedisSeenStore(await redis.connect(), { prefix });
    const at = { now: () => T0 };
    const late: Envelope[] = [];
    for (const task of tasks) {
      const lead = first(task, "lead");
      const [pricing, legal, tech] = (["pricing", "legal", "tech"] as const).map((to) => next(lead, "lead", to, budget(2, 0))) as [Envelope, Envelope, Envelope];
      for (const envelope of [lead, pricing, legal, tech]) expect((await acceptAsync(envelope, { me: envelope.to_agent.id, seen, ...at })).ok).toBe(true);
      expect(await acceptAsync(next(legal, "legal", "lead", budget(2, 1)), { me: "lead", seen, ...at })).toMatchObject({ ok: true, record: { route: "held" } });
      late.push(next(tech, "tech", "lead", budget(2, 1)));
    }
    return late;
  }

  it("a branch arriving exactly at the deadline while another replica's timer asks: the policy acts once", async () => {
    await raceUntilBothWin(async (attempt) => {
      const prefix = `race-deadline-${attempt}`;
      const tasks = Array.from({ length: TASKS }, (_, t) => `${prefix}-${t}`);
      const arrivals = await leadWaiting(prefix, tasks);
      const { answers, onTime } = await race(prefix, [arrivals.map((envelope) => ({ envelope, now: T0 + HOUR })), tasks.map((task) => ({ joinState: task, now: T0 + HOUR }))]);
      const wins: [number, number] = [0, 0];
      for (const [t, task] of tasks.entries()) {
        const [arrival, timer] = answers.map((a) => a[t] as Answer) as [Answer, Answer];
        // At the deadline itself the join has expired, whichever call Redis runs first.
        expect(arrival, task).toMatchObject({ ok: false, rules: ["join-expired"] });
        expect(timer, task).toMatchObject({ ok: true, state: "expired" });
        expect([arrival.acts, timer.acts].filter(Boolean).length, task).toBe(1);
        expect(arrival.route, task).toBe(arrival.acts === true ? "escalate" : "discard");
        wins[arrival.acts === true ? 0 : 1]++;
      }
      return { wins, onTime };
    });
  }, 180_000);

  it("two replicas' timers notice the same expiry at once: exactly one acts on the policy", async () => {
    await raceUntilBothWin(async (attempt) => {
      const prefix = `race-expiry-${attempt}`;
      const tasks = Array.from({ length: TASKS }, (_, t) => `${prefix}-${t}`);
      await leadWaiting(prefix, tasks);
      const asks = tasks.map((task) => ({ joinState: task, now: T0 + HOUR + 5 }));
      const { answers, onTime } = await race(prefix, [asks, asks]);
      const wins: [number, number] = [0, 0];
      for (const [t, task] of tasks.entries()) {
        const pair = answers.map((a) => a[t] as Answer);
        expect(pair.map((answer) => answer.state), task).toEqual(["expired", "expired"]);
        expect(pair.filter((answer) => answer.acts).length, task).toBe(1);
        wins[pair[0]?.acts === true ? 0 : 1]++;
      }
      return { wins, onTime };
    });
  }, 180_000);

  it("the join agent's policy terminal against another replica's timer at the deadline: the task ends there once", async () => {
    const prefix = "race-policy-end";
    const seen = createRedisSeenStore(await redis.connect(), { prefix });
    const tasks = Array.from({ length: TASKS }, (_, t) => `${prefix}-${t}`);
    for (const task of tasks) {
      const scout = first(task, "scout");
      for (const envelope of [scout, next(scout, "scout", "north", budget(4, 0)), next(scout, "scout", "south", budget(4, 0))]) {
        expect((await acceptAsync(envelope, { me: envelope.to_agent.id, seen, now: () => T0 })).ok).toBe(true);
      }
    }
    const deadline = T0 + 600_000;
    const ends = tasks.map((task) => ({ finish: task, me: "scout", terminal: "no_quote", outcome: "failed", now: deadline }));
    const { answers } = await race(prefix, [ends, tasks.map((task) => ({ joinState: task, now: deadline }))]);
    for (const [t, task] of tasks.entries()) {
      const [end, timer] = answers.map((a) => a[t] as Answer) as [Answer, Answer];
      expect(timer, task).toMatchObject({ ok: true, state: "expired" });
      // The finish that acted is accepted; after the timer acted, the task had ended already.
      expect(end, task).toEqual(timer.acts === true ? { ok: false, rules: ["task-finished"] } : { ok: true, acts: true });
      const fields = await (await redis.connect()).hGetAll(redisKey(prefix, "t", task));
      expect(JSON.parse(fields["end"] ?? "null"), task).toMatchObject({ agent: "scout", terminal: "no_quote", outcome: "failed" });
    }
  }, 60_000);
});
