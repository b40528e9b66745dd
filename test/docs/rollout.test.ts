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
import { MAX_ENVELOPE_BYTES } from "../../src/runtime/index.js";
import { run } from "../../src/cli/run.js";
import { createFakeIo } from "../cli/fake-io.js";
import { ensureBuilt } from "../global-setup.js";
import { missing, pythonHas, venvHow, venvPython } from "../import/frameworks.js";
import { createRedisServer, redisAvailable, type RedisServer } from "../runtime/redis-server.js";
import { seamArgs, shellWords } from "./cli-options.js";
import { codeBlocks, root, tag, type CodeBlock } from "./markdown.js";
import { ROLLOUT } from "./rollout-page.js";

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
  /** The UTF-8 length of the body sent. */
  readonly bytes: number;
}

const inSection = (): CodeBlock[] => codeBlocks(ROLLOUT.page).filter((b) => b.section === ROLLOUT.section);
const blocks = (): CodeBlock[] => inSection().filter((b) => !b.tags.startsWith("fragment:"));

const SKIPS: [boolean, string, string][] = [
  [redisAvailable, "redis-server", "apt-get install redis-server"],
  [pythonHas("langgraph", "langgraph") && pythonHas("langgraph", "redis"), "langgraph and redis-py", venvHow("langgraph")],
];
const ready = SKIPS.every(([ok]) => ok);

describe.runIf(!ready)(`${ROLLOUT.page}: the rollout end to end`, () => {
  for (const [ok, pkg, how] of SKIPS) if (!ok) missing(pkg, how);
});

describe.runIf(ready)(`${ROLLOUT.page}: the rollout end to end`, () => {
  let folder = "";
  let redis: RedisServer;
  let builder: { firstEnvelope(handoff: object): Envelope; nextEnvelope(received: Envelope, handoff: object): Envelope };
  const outcomes = new Map<Stage, Map<string, Outcome[]>>();
  const logs = new Map<Stage, Map<ReplicaName, Envelope[]>>();
  /** What each replica answered to bodies past the limit: status and the rules of its error. */
  const oversized = new Map<ReplicaName, string[]>();

  /** The section's `seam <command>` lines (of its `sh` blocks), as CLI arguments. */
  function commands(command: "compile" | "report"): string[][] {
    const lines = blocks().filter((b) => b.lang === "sh").flatMap((b) => b.text.split("\n").filter((line) => line.trim() !== ""));
    const all = lines.map((line) => seamArgs(shellWords(line)));
    expect(all.every((args) => args?.[0] === "compile" || args?.[0] === "report"), "the section runs only seam compile and seam report").toBe(true);
    return all.filter((args): args is string[] => args?.[0] === command);
  }

  /** Runs the section's `seam compile` commands in the folder, through the CLI. */
  async function compile(): Promise<void> {
    const compiles = commands("compile");
    expect(compiles.map((args) => args[args.indexOf("--target") + 1]).sort()).toEqual(["js", "python"]);
    for (const args of compiles) {
      const io = createFakeIo(folder);
      expect([args.join(" "), await run(args, io), io.err()]).toEqual([args.join(" "), 0, ""]);
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
    const body = JSON.stringify(envelope);
    const response = await fetch(`${urls.get(replica)}/agents/${me}`, { method: "POST", body, headers: { "x-producer": producer } });
    expect(response.status).toBe(200);
    const { verdict, done_by } = (await response.json()) as { verdict: Envelope; done_by: string | null };
    const rules: string[] = verdict["ok"] ? verdict["record"]["warnings"].map((r: Envelope) => r["rule"]) : verdict["rejection"]["reasons"].map((r: Envelope) => r["rule"]);
    const kind = verdict["ok"] ? (rules.length > 0 ? "observed" : "accepted") : verdict["duplicate"] ? "duplicate" : "rejected";
    const route = verdict["ok"] ? verdict["record"]["route"] : verdict["rejection"]["route"];
    expect(done_by === null || done_by === me).toBe(true);
    return { replica, verdict: kind, route, rules, ran: done_by === me, bytes: Buffer.byteLength(body) };
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
    await send("payout redelivered", "js", payout);
    await send("payout redelivered again", "py-a", payout);
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

  /**
   * Posts to `replica` one byte past the limit with a Content-Length and, to the Node replica, 3 MiB
   * chunked (no Content-Length; the Python samples read no body then): each answer as "STATUS RULE,...".
   */
  async function sendOversized(replica: ReplicaName, url: string): Promise<string[]> {
    const megabyte = new Uint8Array(1024 * 1024).fill(0x20);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(megabyte);
        controller.close();
      },
    });
    const bodies: [string | ReadableStream<Uint8Array>, RequestInit][] = [[" ".repeat(MAX_ENVELOPE_BYTES + 1), {}]];
    if (replica === "js") bodies.push([chunked, { duplex: "half" } as RequestInit]);
    const answers: string[] = [];
    for (const [body, init] of bodies) {
      const response = await fetch(`${url}/agents/assessor`, { ...init, method: "POST", body, headers: { "x-producer": "intake" } });
      const answer = (await response.json()) as { error: { rule: string }[] };
      answers.push(`${response.status} ${answer.error.map((reason) => reason.rule).join(",")}`);
    }
    return answers;
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
        if (stage === "enforce") for (const replica of REPLICAS) oversized.set(replica, await sendOversized(replica, replicas.urls.get(replica) as string));
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
  });

  /** What one delivery came to, as the page's table writes it: the verdict (with its rules), then whether the agent ran or where the task went. */
  const cell = (o: Outcome): string => `${o.verdict}${o.rules.length > 0 ? ` (${o.rules.join(", ")})` : ""}: ${o.ran ? "runs" : o.route}`;
  /** The race's answers, whichever replica won: sorted. */
  const cells = (list: readonly Outcome[]): string => list.map(cell).sort().join("; ");

  it("refuses a body past the limit in each replica, sized or chunked", () => {
    expect(Object.fromEntries(oversized)).toEqual({
      "py-a": ["400 envelope-too-large"],
      "py-b": ["400 envelope-too-large"],
      js: ["400 envelope-too-large", "400 envelope-too-large"],
    });
  });

  it("lets through and refuses in each replica what each stage should", () => {
    const single = (stage: Stage, name: string): string[] => (outcomes.get(stage)?.get(name) ?? []).map((o) => `${o.replica} ${cell(o)}`);
    const expected: Record<Stage, Record<string, string[]>> = {
      observe: {
        "round 1": ["py-a accepted: runs"],
        "round 1 back": ["js accepted: runs"],
        "round 2": ["py-b accepted: runs"],
        "round 2 back": ["py-a accepted: runs"],
        loop: ["js rejected (max-rounds-exceeded): runs"],
        payout: ["py-b accepted: runs"],
        "payout redelivered": ["js duplicate (duplicate): runs"],
        "payout redelivered again": ["py-a duplicate (duplicate): runs"],
        "no decisions": ["py-a observed (required): runs"],
        misrouted: ["py-b rejected (unknown-edge): runs"],
      },
      warn: {
        "round 1": ["py-a accepted: runs"],
        "round 1 back": ["js accepted: runs"],
        "round 2": ["py-b accepted: runs"],
        "round 2 back": ["py-a accepted: runs"],
        loop: ["js rejected (max-rounds-exceeded): repair"],
        payout: ["py-b accepted: runs"],
        "payout redelivered": ["js duplicate (duplicate): discard"],
        "payout redelivered again": ["py-a duplicate (duplicate): discard"],
        "no decisions": ["py-a observed (required): runs"],
        misrouted: ["py-b rejected (unknown-edge): escalate"],
      },
      enforce: {
        "round 1": ["py-a accepted: runs"],
        "round 1 back": ["js accepted: runs"],
        "round 2": ["py-b accepted: runs"],
        "round 2 back": ["py-a accepted: runs"],
        loop: ["js rejected (max-rounds-exceeded): repair"],
        payout: ["py-b accepted: runs"],
        "payout redelivered": ["js duplicate (duplicate): discard"],
        "payout redelivered again": ["py-a duplicate (duplicate): discard"],
        "no decisions": ["py-a rejected (required): repair"],
        misrouted: ["py-b rejected (unknown-edge): escalate"],
      },
    };
    for (const stage of STAGES) {
      expect(Object.fromEntries(Object.keys(expected[stage]).map((name) => [name, single(stage, name)])), stage).toEqual(expected[stage]);
      // The race: every replica answered, exactly one took the handoff.
      const race = outcomes.get(stage)?.get("race") ?? [];
      expect(race.map((o) => o.replica).sort(), stage).toEqual(["js", "py-a", "py-b"]);
      const duplicate = stage === "observe" ? "duplicate (duplicate): runs" : "duplicate (duplicate): discard";
      expect(cells(race), stage).toBe(["accepted: runs", duplicate, duplicate].sort().join("; "));
    }
  });

  it("writes one handoff event per delivery in each replica's log, Python and JavaScript alike", () => {
    const KEYS = ["event", "v", "at", "graph", "handoff_id", "task_id", "producer", "receiver", "edge", "status", "envelope_version", "latency_ms", "ingest_ms", "verdict", "route", "size_bytes", "hop_index", "hop_limit", "reasons", "reasons_total", "branch", "join"];
    for (const stage of STAGES) {
      for (const name of REPLICAS) {
        const events = logs.get(stage)?.get(name) ?? [];
        const answered = [...(outcomes.get(stage)?.values() ?? [])].flat().filter((o) => o.replica === name);
        expect(events.length, `${stage} ${name}`).toBe(answered.length);
        expect(events.length, `${stage} ${name}`).toBeGreaterThanOrEqual(4);
        for (const event of events) expect(Object.keys(event)).toEqual(KEYS);
        expect(events.every((e) => e["graph"] === "claims_desk" && e["hop_limit"] === 7)).toBe(true);
        const seen = events.map((e) => `${e["verdict"]} ${e["route"]} ${e["reasons"].map((r: Envelope) => r["rule"]).join(",")}`).sort();
        expect(seen, `${stage} ${name}`).toEqual(answered.map((o) => `${o.verdict} ${o.route} ${o.rules.join(",")}`).sort());
        // Each runtime measures the envelope as the UTF-8 length of its compact JSON: the body's.
        expect(events.map((e) => e["size_bytes"]).sort(), `${stage} ${name}`).toEqual(answered.map((o) => o.bytes).sort());
      }
    }
  });

  /** `seam report --format json` over the three logs of each of `stages`. */
  async function report(...stages: Stage[]): Promise<Envelope> {
    const io = createFakeIo(folder);
    const files = stages.flatMap((stage) => REPLICAS.map((name) => join("events", `${stage}-${name}.jsonl`)));
    const code = await run(["report", "--format", "json", ...files], io);
    expect([code, io.err()]).toEqual([0, ""]);
    return JSON.parse(io.out()) as Envelope;
  }

  it("shows each stage's handoffs in seam report, per edge and per producer", async () => {
    const verdicts = (accepted: number, observed: number, rejected: number, duplicate: number) => ({ accepted, observed, rejected, duplicate });
    const none = (count: number) => [{ status: "(none)", count }];
    for (const stage of STAGES) {
      const enforced = stage === "enforce";
      const json = await report(stage);
      expect(json["handoffs"], stage).toBe(13);
      expect(json["verdicts"], stage).toEqual(enforced ? verdicts(6, 0, 3, 4) : verdicts(6, 1, 2, 4));
      expect(json["status_per_edge"], stage).toEqual([
        { producer: "assessor", receiver: "intake", kind: "return", handoffs: 2, statuses: [{ status: "ready", count: 2 }], verdicts: verdicts(2, 0, 0, 0) },
        { producer: "intake", receiver: "assessor", kind: "delegate", handoffs: 4, statuses: none(4), verdicts: verdicts(3, 0, 1, 2) },
        { producer: "intake", receiver: "payer", kind: "delegate", handoffs: 2, statuses: none(2), verdicts: enforced ? verdicts(1, 0, 1, 2) : verdicts(1, 1, 0, 2) },
        { producer: "payer", receiver: "assessor", kind: null, handoffs: 1, statuses: none(1), verdicts: verdicts(0, 0, 1, 0) },
      ]);
      expect(json["rejections"], stage).toEqual({
        by_producer: [
          { producer: "payer", handoffs: 1, rejected: 1, observed: 0, rate: 1 },
          { producer: "intake", handoffs: 6, rejected: enforced ? 2 : 1, observed: enforced ? 0 : 1, rate: 2 / 6 },
          { producer: "assessor", handoffs: 2, rejected: 0, observed: 0, rate: 0 },
        ],
        by_field: [
          { producer: "intake", field: "/decisions", rule: "required", count: 1 },
          { producer: "intake", field: "/hop/path/*", rule: "max-rounds-exceeded", count: 1 },
          { producer: "payer", field: "/to_agent/id", rule: "unknown-edge", count: 1 },
        ],
      });
      // Tasks accepted at hop 1: claims 1, 2 and 5, and 3 while its missing field is only a warning; claim 1 took 4 hops.
      expect(json["hop_counts"], stage).toEqual([
        { graph: "claims_desk", hop_limit: 7, tasks: enforced ? 3 : 4, p50: 1, p95: 4, max: 4, stopped_at_limit: 0, distribution: [{ hops: 1, tasks: enforced ? 2 : 3 }, { hops: 4, tasks: 1 }] },
      ]);
      // Latency is measured for the handoffs let through, from the producer's provenance time.
      const latency = json["latency"] as Envelope;
      expect([latency["count"], latency["unknown"], latency["negative"]], stage).toEqual([enforced ? 6 : 7, 0, 0]);
      expect(latency["by_edge"].map((e: Envelope) => `${e["producer"]}>${e["receiver"]} ${e["count"]}`), stage).toEqual([
        "assessor>intake 2",
        "intake>assessor 3",
        `intake>payer ${enforced ? 1 : 2}`,
      ]);
      // Envelope size per hop: the largest is exact, whichever runtime measured it.
      const sizes = new Map<number, number[]>();
      for (const event of [...(logs.get(stage)?.values() ?? [])].flat()) if (event["verdict"] !== "duplicate") sizes.set(event["hop_index"], [...(sizes.get(event["hop_index"]) ?? []), event["size_bytes"]]);
      expect(json["size_per_hop"].map((h: Envelope) => [h["hop_index"], h["count"], h["max"]]), stage).toEqual(
        [...sizes].sort(([a], [b]) => a - b).map(([hop, list]) => [hop, list.length, Math.max(...list)]),
      );
      expect(json["size_per_hop"].map((h: Envelope) => `${h["hop_index"]}:${h["count"]}`), stage).toEqual(["1:5", "2:1", "3:1", "4:1", "5:1"]);
      expect(json["versions"].map((v: Envelope) => [v["envelope_version"], v["handoffs"]]), stage).toEqual([["1.3.0", 9]]);
      expect([json["fan_outs"]["fan_outs"], json["cut"]], stage).toEqual([0, []]);
    }
  });

  it("adds the three stages up over all nine logs", async () => {
    const json = await report(...STAGES);
    expect([json["handoffs"], json["verdicts"]]).toEqual([39, { accepted: 18, observed: 2, rejected: 7, duplicate: 12 }]);
    expect(json["hop_counts"][0]["distribution"]).toEqual([{ hops: 1, tasks: 8 }, { hops: 4, tasks: 3 }]);
    expect(json["rejections"]["by_field"]).toEqual([
      { producer: "intake", field: "/decisions", rule: "required", count: 3 },
      { producer: "intake", field: "/hop/path/*", rule: "max-rounds-exceeded", count: 3 },
      { producer: "payer", field: "/to_agent/id", rule: "unknown-edge", count: 3 },
    ]);
  });

  it("prints the report the page shows for the enforce stage", async () => {
    const [args, ...more] = commands("report");
    expect(more).toEqual([]);
    const io = createFakeIo(folder);
    expect([await run(args as string[], io), io.err()]).toEqual([0, ""]);
    const printed = io.out().split("\n");
    const shown = inSection().find((b) => b.lang === "text") as CodeBlock;
    // The page's lines appear in the output in order; "..." stands for a time.
    let at = 0;
    for (const line of shown.text.split("\n").filter((l) => l !== "")) {
      const pattern = new RegExp(`^${line.split("...").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\S+")}$`);
      const found = printed.findIndex((p, i) => i >= at && pattern.test(p));
      expect(found, `docs line not printed (in order): ${line}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
  });

  it("has the outcomes the page's table shows, delivery by delivery", () => {
    const lines = readFileSync(join(root, ROLLOUT.page), "utf8").split("\n");
    const header = lines.indexOf("| delivery | replica | observe | warn | enforce |");
    expect(header).toBeGreaterThan(0);
    const rows = [];
    for (let i = header + 2; lines[i]?.startsWith("| "); i++) rows.push((lines[i] as string).slice(2, -2).split(" | "));
    const table = rows.map(([delivery, replica, ...stages]) => [(delivery as string).split(":")[0], replica, ...stages]);
    const observed = [...(outcomes.get("observe") as Map<string, Outcome[]>).keys()].map((name) => {
      const per = STAGES.map((stage) => outcomes.get(stage)?.get(name) as Outcome[]);
      const replica = per[0]?.length === 1 ? per[0][0]?.replica : "all";
      return [name, replica, ...per.map((list) => (list.length === 1 ? cell(list[0] as Outcome) : cells(list)))];
    });
    expect(table).toEqual(observed);
  });
});
