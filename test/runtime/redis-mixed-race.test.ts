/**
 * JavaScript and Python replicas of one graph on one Redis and one key prefix: separate OS
 * processes (node with the JavaScript store, Python with RedisSeenStore in threads and with
 * AsyncRedisSeenStore in asyncio) deliver the same tasks' next hops at the same moment. Both
 * stores run ledger.lua, so they share one ledger: for each task exactly one racer wins, the
 * others are refused with the rule that names why, and each runtime sees what the other wrote.
 * A real redis-server and the .venv of test/python; skipped with one line when either is absent.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitCompileOutput } from "../../src/emit/compile-output.js";
import { createGraphAccept } from "../../src/emit/graph-accept.js";
import { createRedisSeenStore, redisKey } from "../../src/runtime/redis-store.js";
import { checkedGraph, clone, makeTempDir, projectRoot, removeTempDirs } from "../emit/helpers.js";
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
type Racer = { readonly runtime: "js" } | { readonly runtime: "python"; readonly mode: "sync" | "async" };

const JS_WORKER = fileURLToPath(new URL("./redis-ledger-worker.mjs", import.meta.url));
const PY_WORKER = fileURLToPath(new URL("./redis-python-worker.py", import.meta.url));
const VENV_PYTHON = join(projectRoot, ".venv", "bin", "python");
const venvReady = existsSync(VENV_PYTHON);
if (!venvReady) {
  if (process.env["CI"] === "true") throw new Error("the mixed-runtime Redis tests need .venv (see test/python/package.test.ts)");
  console.log("skipped: the mixed-runtime Redis tests need .venv with redis-py (python3 -m venv .venv && .venv/bin/pip install -r python/requirements-test.txt -e python)");
}
const TASKS = 60;
const suite = join(projectRoot, "conformance", "ledger");
const source = readFileSync(join(suite, "graph.seam"), "utf8");
const graph = checkedGraph(source, "ledger/graph.seam");
const { acceptAsync } = createGraphAccept(graph);
const base = JSON.parse(readFileSync(join(suite, "envelopes", "handoff.json"), "utf8")) as Envelope;
const ROLES = new Map(graph.agents.map((agent) => [agent.id, agent.role]));
const redis = useRedis();
let dir = "";
let jsModule = "";
let pyModule = "";

beforeAll(() => {
  dir = makeTempDir("redis-mixed-race");
  for (const file of emitCompileOutput([graph], ["js", "python"], source)) {
    writeFileSync(join(dir, file.path), file.content);
    if (file.path.endsWith(".mjs")) jsModule = join(dir, file.path);
    if (file.path.endsWith(".py")) pyModule = join(dir, file.path);
  }
});
afterAll(removeTempDirs);

let ids = 0;
/** The envelope of task `task` along `path` (its last two entries are producer and receiver). */
function hop(task: string, path: string[]): Envelope {
  const envelope = clone(base);
  envelope["handoff_id"] = `7e6d5c4b-3a29-4817-a6f5-${String(++ids).padStart(12, "0")}`;
  envelope["task_id"] = task;
  envelope["hop"] = { index: path.length - 1, limit: 14, path };
  const [from, to] = path.slice(-2) as [string, string];
  envelope["from_agent"] = { id: from, role: ROLES.get(from) };
  envelope["to_agent"] = { id: to, role: ROLES.get(to) };
  return envelope;
}

const deliver = (envelope: Envelope): Step => ({ envelope, me: envelope["to_agent"].id });

/** Runs each racer's steps in its own process from one moment; resolves with their answers. */
async function race(prefix: string, racers: [Racer, Step[]][]): Promise<{ answers: Answer[][] }> {
  const startAt = Date.now() + 3000;
  const runs = await Promise.all(
    racers.map(([racer, steps], r) => {
      const file = join(dir, `${prefix}-${r}.json`);
      const module = racer.runtime === "js" ? jsModule : pyModule;
      writeFileSync(file, JSON.stringify({ url: redis.server().url, prefix, module, startAt, seed: r + 1, steps, mode: racer.runtime === "python" ? racer.mode : undefined }));
      const [program, script] = racer.runtime === "js" ? [process.execPath, JS_WORKER] : [VENV_PYTHON, PY_WORKER];
      return new Promise<{ late: number; answers: Answer[] }>((resolve, reject) => {
        const child = spawn(program, [script, file], { stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        child.stdout.on("data", (c: Buffer) => (out += c.toString()));
        child.stderr.on("data", (c: Buffer) => (err += c.toString()));
        child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`racer ${r} exited ${code}: ${err}`))));
      });
    }),
  );
  return { answers: runs.map((run) => run.answers) };
}

/** Hop 1 of each task, accepted by the JavaScript store before the race. */
async function prepare(prefix: string, path: [string, string]): Promise<string[]> {
  const tasks = Array.from({ length: TASKS }, (_, t) => `${prefix}-task-${t}`);
  const store = createRedisSeenStore(await redis.connect(), { prefix });
  for (const task of tasks) expect((await acceptAsync(hop(task, path), { me: path[1], seen: store })).ok).toBe(true);
  return tasks;
}

async function ledgerOf(client: SeamClient, prefix: string, task: string): Promise<{ hops: string[]; ended: boolean }> {
  const fields = await client.hGetAll(redisKey(prefix, "t", task));
  const hops = JSON.parse(fields["hops"] ?? "[]") as { i: string; p: string; r: string }[];
  return { hops: hops.map((h) => `${h.i} ${h.p}>${h.r}`), ended: fields["end"] !== undefined };
}

describe.skipIf(!redisAvailable || !venvReady)("one Redis ledger shared by JavaScript and Python replicas", () => {
  let admin: SeamClient;
  beforeAll(async () => {
    admin = await redis.connect();
  });

  it("the owner (Python, asyncio) and two forgers (JavaScript, Python threads) race: only the owner's handoff is accepted", async () => {
    const tasks = await prepare("mixed-producers", ["concierge", "invoices"]);
    const { answers } = await race("mixed-producers", [
      [{ runtime: "python", mode: "async" }, tasks.map((task) => deliver(hop(task, ["concierge", "invoices", "concierge"])))],
      [{ runtime: "js" }, tasks.map((task) => deliver(hop(task, ["concierge", "diagnostics", "concierge"])))],
      [{ runtime: "python", mode: "sync" }, tasks.map((task) => deliver(hop(task, ["concierge", "shipping", "concierge"])))],
    ]);
    for (const [t, task] of tasks.entries()) {
      const [owner, ...forgers] = answers.map((a) => a[t] as Answer);
      expect(owner, task).toEqual({ ok: true });
      for (const forger of forgers) expect(forger?.rules, task).toContain("not-owner");
      expect(await ledgerOf(admin, "mixed-producers", task)).toEqual({ hops: ["1 concierge>invoices", "2 invoices>concierge"], ended: false });
    }
  }, 120_000);

  it("the owner hands one hop to two receivers, a JavaScript and a Python one, at once: exactly one takes it", async () => {
    const tasks = await prepare("mixed-receivers", ["concierge", "invoices"]);
    const { answers } = await race("mixed-receivers", [
      [{ runtime: "js" }, tasks.map((task) => deliver(hop(task, ["concierge", "invoices", "concierge"])))],
      [{ runtime: "python", mode: "sync" }, tasks.map((task) => deliver(hop(task, ["concierge", "invoices", "diagnostics"])))],
    ]);
    for (const [t, task] of tasks.entries()) {
      const [js, py] = answers.map((a) => a[t] as Answer) as [Answer, Answer];
      expect([js.ok, py.ok].filter(Boolean), task).toHaveLength(1);
      expect((js.ok ? py : js).rules, task).toEqual(["owner-conflict"]);
      expect(await ledgerOf(admin, "mixed-receivers", task)).toEqual({ hops: ["1 concierge>invoices", `2 invoices>${js.ok ? "concierge" : "diagnostics"}`], ended: false });
    }
  }, 120_000);

  it("each runtime reads what the other wrote: a redelivery is a duplicate, an ended task refuses", async () => {
    const tasks = await prepare("mixed-reads", ["concierge", "invoices"]);
    const first = hop(tasks[0]!, ["concierge", "invoices", "concierge"]);
    const { answers } = await race("mixed-reads", [[{ runtime: "python", mode: "sync" }, [deliver(first), deliver(first)]]]);
    // The two deliveries run at once, in either order: one is accepted, the other is its duplicate.
    expect(answers[0]).toEqual(expect.arrayContaining([{ ok: true }, { ok: false, rules: ["duplicate"] }]));
    const store = createRedisSeenStore(admin, { prefix: "mixed-reads" });
    const again = await acceptAsync(first, { me: "concierge", seen: store });
    expect(again.ok ? [] : again.rejection.reasons.map((r) => r.rule)).toEqual(["duplicate"]);
    const ended = await race("mixed-reads", [
      [{ runtime: "python", mode: "async" }, [{ finish: tasks[1]!, me: "diagnostics", terminal: "ticket_closed", outcome: "complete" }]],
    ]);
    expect(ended.answers[0]).toEqual([{ ok: false, rules: ["not-owner"] }]);
    const byOwner = await race("mixed-reads", [
      [{ runtime: "python", mode: "async" }, [{ finish: tasks[0]!, me: "concierge", terminal: "resolved", outcome: "complete" }]],
    ]);
    expect(byOwner.answers[0]).toEqual([{ ok: true }]);
    const late = await acceptAsync(hop(tasks[0]!, ["concierge", "invoices", "concierge", "invoices"]), { me: "invoices", seen: store });
    expect(late.ok ? [] : late.rejection.reasons.map((r) => r.rule)).toEqual(["task-finished"]);
    expect(await ledgerOf(admin, "mixed-reads", tasks[0]!)).toEqual({ hops: ["1 concierge>invoices", "2 invoices>concierge"], ended: true });
  }, 120_000);
});
