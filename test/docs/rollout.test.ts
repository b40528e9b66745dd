/**
 * The rollout section of docs/production.md, run as written: its files saved in a new folder
 * inside this checkout (so `seam-handoff/runtime` resolves to it), its `seam compile` commands
 * run, then two Python replicas (LangGraph from `.venv-import/langgraph`, the runtime from
 * python/src) and one Node replica of the claims desk started on free loopback ports, all on one
 * real redis-server and one key prefix. The same feed (good hops of one task across the three
 * replicas, a loop, a redelivery split across replicas, a race of one handoff to all three, a
 * missing required field, a misrouted edge) goes through observe, warn and enforce (the last
 * after `observe` is dropped from the graph and the modules compiled again); each delivery's
 * verdict, route, rules and whether the agent ran are asserted per replica, as are each
 * replica's event log and the `seam report` of each stage's three logs.
 *
 * A missing redis-server or LangGraph venv skips with one line naming the package; under
 * CI=true it fails instead.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { createFakeIo } from "../cli/fake-io.js";
import { ensureBuilt } from "../global-setup.js";
import { missing, pythonHas, venvHow, venvPython } from "../import/frameworks.js";
import { createRedisServer, redisAvailable, type RedisServer } from "../runtime/redis-server.js";
import { seamArgs, shellWords } from "./cli-options.js";
import { codeBlocks, root, tag, type CodeBlock } from "./markdown.js";

/** The page and section this test runs (test/docs/samples.test.ts leaves them to it). */
export const ROLLOUT_PAGE = "docs/production.md";
export const ROLLOUT_SECTION = "A rollout end to end: LangGraph and Node replicas on one Redis";

type Envelope = Record<string, any>;
type Stage = "observe" | "warn" | "enforce";
type ReplicaName = "py-a" | "py-b" | "js";
const STAGES: readonly Stage[] = ["observe", "warn", "enforce"];
const REPLICAS: readonly ReplicaName[] = ["py-a", "py-b", "js"];

/** What one replica answered for one delivery, boiled down to what the test asserts. */
interface Outcome {
  readonly replica: ReplicaName;
  /** accepted, observed (accepted with warnings), rejected or duplicate, as the event log says. */
  readonly verdict: string;
  readonly route: string;
  readonly rules: readonly string[];
  /** Whether the agent's node ran. */
  readonly ran: boolean;
}

const blocks = (): CodeBlock[] => codeBlocks(ROLLOUT_PAGE).filter((b) => b.section === ROLLOUT_SECTION && !b.tags.startsWith("fragment:"));

const SKIPS: [boolean, string, string][] = [
  [redisAvailable, "redis-server", "apt-get install redis-server"],
  [pythonHas("langgraph", "langgraph") && pythonHas("langgraph", "redis"), "langgraph and redis-py", venvHow("langgraph")],
];
const ready = SKIPS.every(([ok]) => ok);

describe.runIf(!ready)(`${ROLLOUT_PAGE}: the rollout end to end`, () => {
  for (const [ok, pkg, how] of SKIPS) if (!ok) missing(pkg, how);
});

describe.runIf(ready)(`${ROLLOUT_PAGE}: the rollout end to end`, () => {
  let folder = "";
  let redis: RedisServer;
  let builder: { firstEnvelope(handoff: object): Envelope; nextEnvelope(received: Envelope, handoff: object): Envelope };
  const outcomes = new Map<Stage, Map<string, Outcome[]>>();
  const logs = new Map<Stage, Map<ReplicaName, Envelope[]>>();

  /** Runs the section's `sh` commands (seam compile) in the folder, through the CLI. */
  async function compile(): Promise<void> {
    const commands = blocks().filter((b) => b.lang === "sh").flatMap((b) => b.text.split("\n").filter((line) => line.trim() !== ""));
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      const args = seamArgs(shellWords(command));
      expect(args?.[0], command).toBe("compile");
      const io = createFakeIo(folder);
      expect([command, await run(args as string[], io), io.err()]).toEqual([command, 0, ""]);
    }
  }

  beforeAll(async () => {
    ensureBuilt();
    mkdirSync(join(root, ".tmp"), { recursive: true });
    folder = mkdtempSync(join(root, ".tmp", "rollout-"));
    mkdirSync(join(folder, "events"));
    for (const block of blocks()) {
      const file = tag(block, "file");
      if (file !== undefined) writeFileSync(join(folder, file), block.text);
    }
    await compile();
    builder = await import(pathToFileURL(join(folder, "out", "claims_desk.validators.mjs")).href);
    redis = await createRedisServer();
    await redis.start();
  }, 60_000);
  afterAll(async () => {
    await redis?.remove();
    if (folder !== "") rmSync(folder, { recursive: true, force: true });
  });

  /** Starts the three replicas of `stage`; resolves with their base URLs once each listens. */
  async function startReplicas(stage: Stage): Promise<{ urls: Map<ReplicaName, string>; stop(): Promise<void> }> {
    const children: ChildProcess[] = [];
    const urls = new Map<ReplicaName, string>();
    const env = { ...process.env, PYTHONPATH: `out:${join(root, "python", "src")}`, LANGSMITH_TRACING: "false" };
    await Promise.all(
      REPLICAS.map(async (name) => {
        const events = join("events", `${stage}-${name}.jsonl`);
        const [program, script] = name === "js" ? [process.execPath, "claims_service.mjs"] : [venvPython("langgraph"), "claims_service.py"];
        const child = spawn(program, [script, stage, redis.url, events], { cwd: folder, env, stdio: ["ignore", "pipe", "pipe"] });
        children.push(child);
        let stderr = "";
        child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
        const url = await new Promise<string>((resolve, reject) => {
          child.once("exit", (code) => reject(new Error(`${name} exited ${code} before it listened:\n${stderr}`)));
          createInterface({ input: child.stdout! }).on("line", (line) => {
            const found = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)?.[1];
            if (found !== undefined) resolve(found);
          });
        });
        urls.set(name, url);
      }),
    ).catch(async (error: unknown) => {
      for (const child of children) child.kill("SIGTERM");
      throw error;
    });
    return {
      urls,
      async stop() {
        await Promise.all(
          children.map(
            (child) =>
              new Promise<void>((resolve) => {
                if (child.exitCode !== null) return resolve();
                child.once("exit", () => resolve());
                child.kill("SIGTERM");
              }),
          ),
        );
      },
    };
  }

  /** Delivers `envelope` to agent `me` at `replica` as `producer` (the authenticated sender). */
  async function deliver(urls: Map<ReplicaName, string>, replica: ReplicaName, me: string, envelope: Envelope, producer: string): Promise<Outcome> {
    const response = await fetch(`${urls.get(replica)}/agents/${me}`, { method: "POST", body: JSON.stringify(envelope), headers: { "x-producer": producer } });
    expect(response.status).toBe(200);
    const { verdict, done_by } = (await response.json()) as { verdict: Envelope; done_by: string | null };
    const rules: string[] = verdict["ok"] ? verdict["record"]["warnings"].map((r: Envelope) => r["rule"]) : verdict["rejection"]["reasons"].map((r: Envelope) => r["rule"]);
    const kind = verdict["ok"] ? (rules.length > 0 ? "observed" : "accepted") : verdict["duplicate"] ? "duplicate" : "rejected";
    const route = verdict["ok"] ? verdict["record"]["route"] : verdict["rejection"]["route"];
    expect(done_by === null || done_by === me).toBe(true);
    return { replica, verdict: kind, route, rules, ran: done_by === me };
  }

  const GOAL = { statement: "Assess claim 88-104 and pay what is owed.", acceptance_criteria: ["The payout matches the assessment"] };
  const BUDGET = { consumed: { tokens: 900 }, limit: { tokens: 50_000 } };
  const CONSTRAINTS = ["No payout above the policy limit"];
  const DECISION = [{ id: "covered", statement: "The claim is covered", rationale: "policy 88 is in force", confidence: 0.9, reversible: true }];
  const REPORT = [{ ref: "s3://claims/88-104/assessment.json", media_type: "application/json", role: "required" }];

  /** Drives the feed through one stage's replicas: each delivery's outcome, by its name. */
  async function feed(stage: Stage, urls: Map<ReplicaName, string>): Promise<Map<string, Outcome[]>> {
    const out = new Map<string, Outcome[]>();
    const send = async (name: string, replica: ReplicaName, envelope: Envelope): Promise<void> => {
      const outcome = await deliver(urls, replica, envelope["to_agent"]["id"], envelope, envelope["from_agent"]["id"]);
      out.set(name, [...(out.get(name) ?? []), outcome]);
    };
    const task = (n: number): string => `${stage}-claim-${n}`;
    // One task across the three replicas: two rounds of assessment, then a third (a loop past max_rounds 2).
    const h1 = builder.firstEnvelope({ me: "intake", to: "assessor", taskId: task(1), goal: GOAL, budget: BUDGET, action: "opened the claim", constraints: CONSTRAINTS });
    await send("round 1", "py-a", h1);
    const h2 = builder.nextEnvelope(h1, { me: "assessor", to: "intake", action: "assessed the damage", status: "ready", artefacts: REPORT });
    await send("round 1 back", "js", h2);
    const h3 = builder.nextEnvelope(h2, { me: "intake", to: "assessor", action: "asked for a second look" });
    await send("round 2", "py-b", h3);
    const h4 = builder.nextEnvelope(h3, { me: "assessor", to: "intake", action: "assessed it again", status: "ready", artefacts: REPORT });
    await send("round 2 back", "py-a", h4);
    const h5 = builder.nextEnvelope(h4, { me: "intake", to: "assessor", action: "asked once more" });
    await send("loop", "js", h5);
    // A payout delegated once and redelivered to the other two replicas.
    const payout = builder.firstEnvelope({ me: "intake", to: "payer", taskId: task(2), goal: GOAL, budget: BUDGET, action: "approved the payout", constraints: CONSTRAINTS, decisions: DECISION });
    await send("payout", "py-b", payout);
    await send("payout", "js", payout);
    await send("payout", "py-a", payout);
    // The same delegation without the decisions the edge requires.
    const bare = builder.firstEnvelope({ me: "intake", to: "payer", taskId: task(3), goal: GOAL, budget: BUDGET, action: "approved the payout", constraints: CONSTRAINTS });
    await send("no decisions", "py-a", bare);
    // The payer hands work to the assessor: the graph has no such edge.
    const misrouted = builder.firstEnvelope({ me: "intake", to: "payer", taskId: task(4), goal: GOAL, budget: BUDGET, action: "paid", constraints: CONSTRAINTS, decisions: DECISION });
    misrouted["from_agent"] = { id: "payer", role: "worker" };
    misrouted["to_agent"] = { id: "assessor", role: "worker" };
    misrouted["hop"]["path"] = ["payer", "assessor"];
    await send("misrouted", "py-b", misrouted);
    // One handoff delivered to all three replicas at once: one of them takes it.
    const raced = builder.firstEnvelope({ me: "intake", to: "assessor", taskId: task(5), goal: GOAL, budget: BUDGET, action: "opened the claim", constraints: CONSTRAINTS });
    const answers = await Promise.all(REPLICAS.map((replica) => deliver(urls, replica, "assessor", raced, "intake")));
    out.set("race", answers);
    return out;
  }

  it("goes through observe, warn and enforce with two LangGraph replicas and a Node one", { timeout: 180_000 }, async () => {
    for (const stage of STAGES) {
      if (stage === "enforce") {
        // Stage 3: drop observe from the edges and compile again.
        const file = join(folder, "claims_desk.seam");
        writeFileSync(file, readFileSync(file, "utf8").replaceAll(" observe", ""));
        await compile();
      }
      const replicas = await startReplicas(stage);
      try {
        outcomes.set(stage, await feed(stage, replicas.urls));
      } finally {
        await replicas.stop();
      }
      const read = (name: ReplicaName): Envelope[] =>
        readFileSync(join(folder, "events", `${stage}-${name}.jsonl`), "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as Envelope);
      logs.set(stage, new Map(REPLICAS.map((name) => [name, read(name)])));
    }
    const summary = (stage: Stage): Record<string, string[]> =>
      Object.fromEntries(
        [...(outcomes.get(stage) as Map<string, Outcome[]>)].map(([name, list]) => [
          name,
          list.map((o) => `${o.replica} ${o.verdict} ${o.route}${o.rules.length > 0 ? ` ${o.rules.join(",")}` : ""}${o.ran ? " ran" : ""}`),
        ]),
      );
    console.log(JSON.stringify(Object.fromEntries(STAGES.map((s) => [s, summary(s)])), null, 1));
    for (const stage of STAGES) for (const name of REPLICAS) console.log(stage, name, logs.get(stage)?.get(name)?.length);
  });
});
