/**
 * Replicas racing over the task ledger in the Redis store: separate OS processes, each an agent
 * service calling the emitted module's acceptAsync() or finishAsync() at the same moment for the
 * same tasks. For each task exactly one of the racers wins, the losers are refused with the rule
 * that names why, and the ledger in Redis records the winner alone. And a Redis stopped in the
 * middle of a task: no verdict while it is down, the task goes on where it was once it is back.
 * A real redis-server; skipped with one line naming the package when it is absent.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitCompileOutput } from "../../src/emit/compile-output.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { createRedisSeenStore, redisKey, StoreUnavailableError } from "../../src/runtime/redis-store.js";
import { checkedGraph, clone, makeTempDir, projectRoot, removeTempDirs } from "../emit/helpers.js";
import { raceUntilBothWin } from "./race-rounds.js";
import { useRedis, type SeamClient } from "./redis-fixture.js";
import { redisAvailable } from "./redis-server.js";

type Envelope = Record<string, any>;
interface Step {
  readonly envelope?: Envelope;
  readonly finish?: string;
  readonly me: string;
  readonly terminal?: string;
  readonly outcome?: string;
}
interface Answer {
  readonly ok: boolean;
  readonly rules?: string[];
}

const WORKER = fileURLToPath(new URL("./redis-ledger-worker.mjs", import.meta.url));
const TASKS = 150;
const suite = join(projectRoot, "conformance", "ledger");
const graph = checkedGraph(readFileSync(join(suite, "graph.seam"), "utf8"), "ledger/graph.seam");
const { acceptAsync, finishAsync } = createGraphAccept(graph);
const base = JSON.parse(readFileSync(join(suite, "envelopes", "handoff.json"), "utf8")) as Envelope;
const ROLES = new Map(graph.agents.map((agent) => [agent.id, agent.role]));
const redis = useRedis();
let dir = "";
let module = "";

beforeAll(() => {
  dir = makeTempDir("redis-ledger-race");
  for (const file of emitCompileOutput([graph])) {
    writeFileSync(join(dir, file.path), file.content);
    if (file.path.endsWith(".mjs")) module = join(dir, file.path);
  }
});
afterAll(removeTempDirs);

let ids = 0;
/** The envelope of task `task` along `path` (its last two entries are producer and receiver). */
function hop(task: string, path: string[]): Envelope {
  const envelope = clone(base);
  envelope["handoff_id"] = `9d8c7b6a-5f4e-4d3c-8b2a-${String(++ids).padStart(12, "0")}`;
  envelope["task_id"] = task;
  envelope["hop"] = { index: path.length - 1, limit: 14, path };
  const [from, to] = path.slice(-2) as [string, string];
  envelope["from_agent"] = { id: from, role: ROLES.get(from) };
  envelope["to_agent"] = { id: to, role: ROLES.get(to) };
  return envelope;
}

const deliver = (envelope: Envelope): Step => ({ envelope, me: envelope["to_agent"].id });

/**
 * Runs one racer per list of steps, all starting at the same moment; resolves with their answers,
 * and whether every racer started on time (within 20 ms), so that the racers did overlap.
 */
async function race(prefix: string, racers: Step[][]): Promise<{ answers: Answer[][]; onTime: boolean }> {
  const startAt = Date.now() + 2000;
  const runs = await Promise.all(
    racers.map((steps, r) => {
      const file = join(dir, `${prefix}-${r}.json`);
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

/** Hop 1 of each task, accepted before the race. */
async function prepare(prefix: string, path: [string, string]): Promise<string[]> {
  const tasks = Array.from({ length: TASKS }, (_, t) => `${prefix}-task-${t}`);
  const store = createRedisSeenStore(await redis.connect(), { prefix });
  for (const task of tasks) expect((await acceptAsync(hop(task, path), { me: path[1], seen: store })).ok).toBe(true);
  return tasks;
}

/** The ledger Redis holds for `task`: the accepted hops (index, producer, receiver) and whether it ended. */
async function ledgerOf(client: SeamClient, prefix: string, task: string): Promise<{ hops: string[]; ended: boolean }> {
  const fields = await client.hGetAll(redisKey(prefix, "t", task));
  const hops = JSON.parse(fields["hops"] ?? "[]") as { i: string; p: string; r: string }[];
  return { hops: hops.map((h) => `${h.i} ${h.p}>${h.r}`), ended: fields["end"] !== undefined };
}

describe.skipIf(!redisAvailable)("the ledger in Redis under racing replicas", () => {
  let admin: SeamClient;
  beforeAll(async () => {
    admin = await redis.connect();
  });

  it("three producers hand on the same task's next hop at once: only its owner's handoff is accepted", async () => {
    const tasks = await prepare("race-producers", ["concierge", "invoices"]);
    const { answers } = await race("race-producers", [
      tasks.map((task) => deliver(hop(task, ["concierge", "invoices", "concierge"]))),
      tasks.map((task) => deliver(hop(task, ["concierge", "diagnostics", "concierge"]))),
      tasks.map((task) => deliver(hop(task, ["concierge", "shipping", "concierge"]))),
    ]);
    for (const [t, task] of tasks.entries()) {
      const [owner, forger1, forger2] = answers.map((a) => a[t] as Answer);
      expect(owner, task).toEqual({ ok: true });
      for (const forger of [forger1, forger2]) {
        expect(forger?.ok, task).toBe(false);
        expect(forger?.rules, task).toContain("not-owner");
      }
      expect(await ledgerOf(admin, "race-producers", task)).toEqual({ hops: ["1 concierge>invoices", "2 invoices>concierge"], ended: false });
    }
  }, 60_000);

  it("the owner hands the same hop to two receivers at once: exactly one takes it, the other is an owner conflict", async () => {
    await raceUntilBothWin(async (attempt) => {
      const prefix = `race-receivers-${attempt}`;
      const tasks = await prepare(prefix, ["concierge", "invoices"]);
      const { answers, onTime } = await race(prefix, [
        tasks.map((task) => deliver(hop(task, ["concierge", "invoices", "concierge"]))),
        tasks.map((task) => deliver(hop(task, ["concierge", "invoices", "diagnostics"]))),
      ]);
      const wins: [number, number] = [0, 0];
      for (const [t, task] of tasks.entries()) {
        const [toConcierge, toDiagnostics] = answers.map((a) => a[t] as Answer) as [Answer, Answer];
        expect([toConcierge.ok, toDiagnostics.ok].filter(Boolean), task).toHaveLength(1);
        const winner = toConcierge.ok ? "concierge" : "diagnostics";
        wins[toConcierge.ok ? 0 : 1]++;
        expect((toConcierge.ok ? toDiagnostics : toConcierge).rules, task).toEqual(["owner-conflict"]);
        expect(await ledgerOf(admin, prefix, task)).toEqual({ hops: ["1 concierge>invoices", `2 invoices>${winner}`], ended: false });
      }
      return { wins, onTime };
    });
  }, 180_000);

  it("the owner ends the task while its handoff is delivered: exactly one of the two happens", async () => {
    await raceUntilBothWin(async (attempt) => {
      const prefix = `race-finish-${attempt}`;
      const tasks = await prepare(prefix, ["concierge", "diagnostics"]);
      const { answers, onTime } = await race(prefix, [
        tasks.map((task) => ({ finish: task, me: "diagnostics", terminal: "ticket_closed", outcome: "complete" })),
        tasks.map((task) => deliver(hop(task, ["concierge", "diagnostics", "concierge"]))),
      ]);
      const wins: [number, number] = [0, 0];
      for (const [t, task] of tasks.entries()) {
        const [finished, handed] = answers.map((a) => a[t] as Answer) as [Answer, Answer];
        expect([finished.ok, handed.ok].filter(Boolean), task).toHaveLength(1);
        wins[finished.ok ? 0 : 1]++;
        const ledger = await ledgerOf(admin, prefix, task);
        if (finished.ok) {
          expect(handed.rules, task).toEqual(["task-finished"]);
          expect(ledger).toEqual({ hops: ["1 concierge>diagnostics"], ended: true });
        } else {
          expect(finished.rules, task).toEqual(["not-owner"]);
          expect(ledger).toEqual({ hops: ["1 concierge>diagnostics", "2 diagnostics>concierge"], ended: false });
        }
      }
      return { wins, onTime };
    });
  }, 180_000);
});

describe.skipIf(!redisAvailable)("the ledger in Redis across a Redis restart", () => {
  it("gives no verdict while Redis is down, and goes on where the task was once it is back", async () => {
    const server = redis.server();
    const path = ["concierge", "invoices", "concierge", "diagnostics"];
    const [hop1, hop2, hop3] = [2, 3, 4].map((n) => hop("restart-task", path.slice(0, n))) as [Envelope, Envelope, Envelope];
    let seen = createRedisSeenStore(await redis.connect(), { prefix: "restart", timeoutMs: 500 });
    const to = (envelope: Envelope) => ({ me: envelope["to_agent"].id as string, seen });
    expect((await acceptAsync(hop1, to(hop1))).ok).toBe(true);
    expect((await acceptAsync(hop2, to(hop2))).ok).toBe(true);
    await server.stop();
    await expect(acceptAsync(hop3, to(hop3))).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(finishAsync("restart-task", { me: "concierge", terminal: "resolved", outcome: "complete", seen })).rejects.toBeInstanceOf(StoreUnavailableError);
    await server.start();
    seen = createRedisSeenStore(await redis.connect(), { prefix: "restart", timeoutMs: 500 });
    // The ledger survived (append-only file): hop 2 is still a duplicate, and still concierge's.
    expect(await acceptAsync(hop2, to(hop2))).toMatchObject({ ok: false, duplicate: true });
    const fork = hop("restart-task", ["concierge", "invoices", "diagnostics"]);
    expect(await acceptAsync(fork, to(fork))).toMatchObject({ ok: false, rejection: { reasons: [{ rule: "owner-conflict" }] } });
    expect((await acceptAsync(hop3, to(hop3))).ok).toBe(true);
    expect(await ledgerOf(await redis.connect(), "restart", "restart-task")).toEqual({ hops: ["1 concierge>invoices", "2 invoices>concierge", "3 concierge>diagnostics"], ended: false });
  }, 30_000);
});
