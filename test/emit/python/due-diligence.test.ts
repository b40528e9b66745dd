/**
 * The due-diligence example (examples/parallel-due-diligence.seam) enforced end to end on a real
 * Redis, through the compiled JavaScript module (acceptAsync, finishAsync) and the compiled
 * Python module (accept with RedisSeenStore, accept_async with AsyncRedisSeenStore): sanctions
 * and adverse-media research fanned out at once, the lead's next hop refused while a branch is
 * open (its next hop and its end), the join holding the first answer and firing on the second, a person's approval before
 * the memo goes out, and the memo's end. Both runtimes give the same verdicts, messages included.
 * Skipped with one line when redis-server or the .venv with redis-py is absent.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitCompileOutput } from "../../../src/emit/compile-output.js";
import { toAgentInfos, toEdgeInfos, toGraphInfo } from "../../../src/emit/graph-data.js";
import { addGraphSchemas } from "../../../src/emit/schema-compiler.js";
import type { AcceptAsync, AcceptResult } from "../../../src/runtime/accept.js";
import { createEnvelopeBuilder } from "../../../src/runtime/envelope-builder.js";
import type { Budget, Envelope } from "../../../src/runtime/envelope.js";
import type { FinishAsync } from "../../../src/runtime/finish.js";
import { checkedGraph, makeTempDir, projectRoot, removeTempDirs } from "../helpers.js";
import { useRedis } from "../../runtime/redis-fixture.js";
import { redisAvailable } from "../../runtime/redis-server.js";
import { HERE, runJson, writePythonModule } from "./python.js";

const VENV_PYTHON = join(projectRoot, ".venv", "bin", "python");
const ready = redisAvailable && existsSync(VENV_PYTHON);
if (!ready) {
  if (process.env["CI"] === "true") throw new Error("the due-diligence end-to-end test needs redis-server and .venv (see test/python/package.test.ts)");
  console.log("skipped: the due-diligence end-to-end test needs redis-server and .venv with redis-py (python3 -m venv .venv && .venv/bin/pip install -r python/requirements-test.txt -e python)");
}

const source = readFileSync(join(projectRoot, "examples", "parallel-due-diligence.seam"), "utf8");
const graph = checkedGraph(source, "parallel-due-diligence.seam");
const edges = toEdgeInfos(graph, addGraphSchemas(graph).edgeContracts);
const builder = createEnvelopeBuilder({ graph: toGraphInfo(graph), agents: toAgentInfos(graph), edges });
const redis = useRedis();
const NOW = "2026-12-01T09:00:00Z";
const T = Date.parse(NOW);
const TASK = "dd-acme-7";

let ids = 0;
const handoffId = (): string => `6d5c4b3a-2f1e-4d0c-9b8a-${String(++ids).padStart(12, "0")}`;
const budget = (limit: number, consumed: number): Budget => ({ limit: { tool_calls: limit }, consumed: { tool_calls: consumed } });
const finding = (id: string, statement: string) => ({ id, statement, rationale: `${id}: checked against the public registers`, confidence: 0.9, reversible: true });

// The task, as the agents' services would hand it on (one builder call each).
const toSanctions = builder.first({
  me: "lead",
  to: "sanctions",
  action: "asks for a sanctions screening",
  taskId: TASK,
  goal: { statement: "Due diligence on Acme Holdings", acceptance_criteria: ["sanctions and adverse media are both screened"] },
  budget: budget(3, 0),
  constraints: ["public sources only"],
  handoffId: handoffId(),
  now: () => T,
});
const toMedia = builder.first({
  me: "lead",
  to: "media",
  action: "asks for an adverse-media search",
  taskId: TASK,
  goal: toSanctions.goal,
  budget: budget(3, 0),
  constraints: ["public sources only"],
  handoffId: handoffId(),
  now: () => T,
});
const answer = (received: Envelope, me: string, statement: string): Envelope =>
  builder.next(received, {
    me,
    to: "lead",
    action: statement,
    status: "ready",
    decisions: [finding(me, statement)],
    artefacts: [{ ref: `artefact://dd/${me}-report`, media_type: "application/pdf", role: "supporting" }],
    budget: budget(3, 2),
    handoffId: handoffId(),
    now: () => T,
  });
const sanctionsBack = answer(toSanctions, "sanctions", "no sanctions listing");
const mediaBack = answer(toMedia, "media", "no adverse media");
// The lead's next hop outside the branches, before the join fires: the approval request, too early.
const tooEarly = { ...builder.join([sanctionsBack], { me: "lead", to: "approval", action: "asks for sign-off", status: "waiting_review", constraints: ["public sources only"], handoffId: handoffId(), now: () => T }) };
const toApproval = builder.join([sanctionsBack, mediaBack], {
  me: "lead",
  to: "approval",
  action: "asks for sign-off on the memo",
  status: "waiting_review",
  constraints: ["public sources only"],
  handoffId: handoffId(),
  now: () => T,
});
// The same request with a limit above the 3 + 3 tool calls the branches were given.
const raised = { ...toApproval, handoff_id: handoffId(), budget: { limit: { tool_calls: 7 }, consumed: toApproval.budget.consumed } };
const toMemo = {
  ...builder.next(toApproval, { me: "approval", to: "memo", action: "approves the memo", status: "ready", constraints: ["public sources only"], handoffId: handoffId(), now: () => T }),
  approval: { approver: "compliance-officer-3", approved_at: "2026-12-01T10:00:00Z", pending_handoff_id: toApproval.handoff_id },
};

interface Step {
  readonly note: string;
  readonly envelope?: Envelope;
  readonly finish?: { task: string; me: string; terminal: string; outcome: "complete" | "escalate" | "failed" };
}
const steps: Step[] = [
  { note: "branch research/sanctions opens", envelope: toSanctions },
  { note: "branch research/media opens: a second owner of hop 1", envelope: toMedia },
  { note: "the lead asks for approval while both branches are open", envelope: tooEarly },
  { note: "the lead declines the counterparty while both branches are open", finish: { task: TASK, me: "lead", terminal: "declined", outcome: "failed" } },
  { note: "sanctions answers: the join holds it", envelope: sanctionsBack },
  { note: "the sanctions answer again under a fresh id: a replay", envelope: { ...sanctionsBack, handoff_id: handoffId() } },
  { note: "media answers: the join fires", envelope: mediaBack },
  { note: "the lead asks for approval with more tool calls than its branches were given", envelope: raised },
  { note: "the lead asks for approval, from the longest branch, with both branches' limits and spend", envelope: toApproval },
  { note: "the approver signs off: the memo goes out", envelope: toMemo },
  { note: "the memo agent ends the task", finish: { task: TASK, me: "memo", terminal: "sent", outcome: "complete" } },
];

type Verdict = { ok: boolean; route?: string; rules?: string[]; message?: string; rule?: string };
const expected: Verdict[] = [
  { ok: true, route: "proceed" },
  { ok: true, route: "proceed" },
  {
    ok: false,
    route: "repair",
    rules: ["branch-open"],
    message: `task "${TASK}" waits at the join of "lead" for branches "research/sanctions" and "research/media": no hop outside a branch, nor the task's end, until the join fires (a hop inside a branch names it in hop.branch)`,
  },
  { ok: false, rule: "branch-open" },
  { ok: true, route: "held" },
  { ok: false, route: "discard", rules: ["duplicate"] },
  { ok: true, route: "proceed" },
  {
    ok: false,
    route: "repair",
    rules: ["budget-limit-raised"],
    message: "tool_calls: a limit of 7 is above the task's limit of 6, set by hop 2; a later hop may not raise it",
  },
  { ok: true, route: "approval" },
  { ok: true, route: "proceed" },
  { ok: true },
];

/** A verdict in this test's terms. */
function verdictOf(result: AcceptResult, withMessage: boolean): Verdict {
  if (result.ok) return { ok: true, route: result.record.route };
  const rules = result.rejection.reasons.map((r) => r.rule);
  return { ok: false, route: result.rejection.route, rules, ...(withMessage ? { message: result.rejection.reasons[0]?.message } : {}) };
}

let dir = "";
beforeAll(() => {
  dir = makeTempDir("due-diligence");
});
afterAll(removeTempDirs);

describe.skipIf(!ready)("the due-diligence example end to end on Redis", () => {
  it("is checked clean, and its envelopes carry their branches", () => {
    expect([toSanctions.hop.branch, toMedia.hop.branch, sanctionsBack.hop.branch, toApproval.hop.branch]).toEqual(["research/sanctions", "research/media", "research/sanctions", undefined]);
    expect(toApproval.hop).toMatchObject({ index: 3, path: ["lead", "sanctions", "lead", "approval"] });
    expect(toApproval.budget).toEqual({ limit: { tool_calls: 6 }, consumed: { tool_calls: 4 } });
  });

  it("through the compiled JavaScript module (acceptAsync, finishAsync on the Redis store)", async () => {
    let module = "";
    for (const file of emitCompileOutput([graph])) {
      writeFileSync(join(dir, file.path), file.content);
      if (file.path.endsWith(".mjs")) module = join(dir, file.path);
    }
    const { acceptAsync, finishAsync } = (await import(module)) as { acceptAsync: AcceptAsync; finishAsync: FinishAsync };
    const seen = await redis.store();
    const got: Verdict[] = [];
    for (const [i, step] of steps.entries()) {
      if (step.finish !== undefined) {
        const { task, ...options } = step.finish;
        const verdict = await finishAsync(task, { ...options, seen, now: () => T });
        got.push(verdict.ok ? { ok: true } : { ok: false, rule: verdict.rule });
        continue;
      }
      const envelope = step.envelope as Envelope;
      got.push(verdictOf(await acceptAsync(envelope, { me: envelope.to_agent.id, seen, now: () => T }), expected[i]?.message !== undefined));
    }
    expect(got).toEqual(expected);
  });

  it.each(["sync", "async"])("through the compiled Python module (%s, on redis-py)", (mode) => {
    // The steps as a conformance case, run by the Python conformance runner on Redis.
    const suite = join(dir, `suite-${mode}`);
    mkdirSync(suite, { recursive: true });
    writeFileSync(join(suite, "graph.seam"), source);
    const deliveries = steps.map((step) =>
      step.finish !== undefined ? { finish: { ...step.finish, now: NOW }, expect: { ok: true } } : { envelope: step.envelope, me: (step.envelope as Envelope).to_agent.id, now: NOW, expect: {} },
    );
    writeFileSync(join(suite, "end-to-end.json"), JSON.stringify({ description: "due diligence", deliveries }));
    const module = writePythonModule(graph, "py-due-diligence", source);
    const answers = runJson<Record<string, { ok: boolean; route?: string; reasons?: [string, string][]; messages?: [string, string, string][]; rule?: string }[]>>(
      VENV_PYTHON,
      join(HERE, "conformance.py"),
      [module, suite, mode, redis.server().url],
      null,
    );
    const got = (answers["end-to-end"] ?? []).map((answer, i): Verdict => {
      if (steps[i]?.finish !== undefined) return answer.ok ? { ok: true } : { ok: false, rule: answer.rule as string };
      if (answer.ok) return { ok: true, route: answer.route as string };
      const message = expected[i]?.message === undefined ? {} : { message: answer.messages?.[0]?.[2] };
      return { ok: false, route: answer.route as string, rules: (answer.reasons ?? []).map((r) => r[1]), ...message };
    });
    expect(got).toEqual(expected);
  });
});
