/**
 * The framework adapters of the Python runtime (`seam_handoff.adapters`), each run inside its
 * real framework, installed from PyPI at the pins of `test/import/python/<name>.txt` in
 * `.venv-import/<name>` (`.ci/run` makes them): a LangGraph graph invoked through the guard and
 * check nodes, an OpenAI Agents SDK run whose handoff carries the envelope (the SDK's own
 * ScriptedModel stands in for the models), CrewAI's tool-hook dispatch deciding a delegation, and
 * whole crews run by Crew.kickoff() on a scripted BaseLLM; each also at a join that holds an
 * arrival (the due-diligence example's fan-out). No network, no LLM. A missing framework skips
 * with one line; under CI=true it fails.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emitPydanticModels } from "../../src/emit/python/pydantic-models.js";
import { emitPythonModule } from "../../src/emit/python/python-module.js";
import { checkedGraphs, makeTempDir, projectRoot, removeTempDirs } from "../emit/helpers.js";
import { missing, pythonHas, venvHow, venvPython, type PythonFramework } from "../import/frameworks.js";

afterAll(() => removeTempDirs());

const FIXTURES = join(projectRoot, "test", "fixtures", "cases", "envelopes");
const ENVELOPE = join(FIXTURES, "valid-delegate.json");

/** The refund desk's module and models, and the due-diligence example's (a fan-out and a join), compiled into one new folder. */
function compiled(): string {
  const dir = makeTempDir("py-adapters");
  const text = readFileSync(join(FIXTURES, "graph.seam"), "utf8");
  const [graph] = checkedGraphs(text, "graph.seam");
  writeFileSync(join(dir, "refund_desk_validators.py"), emitPythonModule(graph!, { text }));
  writeFileSync(join(dir, "refund_desk_models.py"), emitPydanticModels(graph!, { text }));
  const example = readFileSync(join(projectRoot, "examples", "parallel-due-diligence.seam"), "utf8");
  const [fanOut] = checkedGraphs(example, "parallel-due-diligence.seam");
  writeFileSync(join(dir, "parallel_due_diligence_validators.py"), emitPythonModule(fanOut!, { text: example }));
  writeFileSync(join(dir, "parallel_due_diligence_models.py"), emitPydanticModels(fanOut!, { text: example }));
  return dir;
}

/** Runs `test/python/adapters/<script>` in the venv of `framework`; returns the JSON it prints. */
function runIn(framework: PythonFramework, script: string): Record<string, unknown> {
  const result = spawnSync(venvPython(framework), [join(projectRoot, "test", "python", "adapters", script), compiled(), ENVELOPE], {
    encoding: "utf8",
    env: {
      ...process.env,
      PYTHONPATH: join(projectRoot, "python", "src"),
      // No framework phones home from a test.
      OTEL_SDK_DISABLED: "true",
      CREWAI_DISABLE_TELEMETRY: "true",
      CREWAI_TRACING_ENABLED: "false",
      OPENAI_AGENTS_DISABLE_TRACING: "1",
      LANGSMITH_TRACING: "false",
    },
    timeout: 300_000,
  });
  if (result.status !== 0) throw new Error(`${script} exited ${result.status}:\n${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

const SLOW = 300_000;

describe("seam_handoff.adapters.langgraph in LangGraph", () => {
  if (!pythonHas("langgraph", "langgraph")) return missing("langgraph", venvHow("langgraph"));
  it("routes a real graph on the verdict, by Command and by a conditional edge, sync and async, and stops at a join that holds", { timeout: SLOW }, () => {
    const out = runIn("langgraph", "langgraph_run.py");
    expect(out["command_valid"]).toEqual({ ok: true, route: "proceed", rules: [], visited: ["billing"] });
    // A redelivery: discard, which goto does not map, ends the run with the verdict in the state.
    expect(out["command_again"]).toEqual({ ok: false, route: "discard", rules: ["duplicate"], visited: [] });
    expect(out["command_bad"]).toEqual({ ok: false, route: "repair", rules: ["bad-hop-path", "bad-hop-path", "bad-hop-path"], visited: ["send_back"] });
    expect(out["conditional_valid"]).toEqual({ ok: true, route: "proceed", rules: [], visited: ["billing"] });
    expect(out["conditional_bad"]).toEqual({ ok: false, route: "repair", rules: ["bad-hop-path", "bad-hop-path", "bad-hop-path"], visited: ["send_back"] });
    expect(out["async_valid"]).toEqual({ ok: true, route: "proceed", rules: [], visited: ["billing"] });
    // A join: the held arrival ends the run (END, no error, the lead's node does not run); the one that fires the join goes on.
    const join = [
      { ok: true, route: "held", rules: [], visited: [], waiting: ["research/media"], fired: false },
      { ok: true, route: "proceed", rules: [], visited: ["lead"], waiting: [], fired: true },
    ];
    expect(out["join_command"]).toEqual(join);
    expect(out["join_conditional"]).toEqual(join);
    expect(out["path_map"]).toEqual({
      proceed: "billing",
      human_input: "__end__",
      approval: "__end__",
      failed: "__end__",
      held: "wait",
      repair: "__end__",
      escalate: "__end__",
      fail: "__end__",
      discard: "__end__",
      retry: "__end__",
    });
    // Why verdict_path_map: LangGraph's own path_map fails on a route it lacks.
    expect(out["plain_path_map"]).toBe("KeyError");
    expect(out["misspelt_goto"]).toBe("goto names no route 'procede'; the routes are approval, discard, escalate, fail, failed, held, human_input, proceed, repair, retry");
  });
});

describe("seam_handoff.adapters.langgraph under mypy --strict", () => {
  const mypy = join(projectRoot, ".venv", "bin", "mypy");
  if (!pythonHas("langgraph", "langgraph")) return missing("langgraph", venvHow("langgraph"));
  if (!existsSync(mypy)) return missing("mypy", "python3 -m venv .venv && .venv/bin/pip install -r python/requirements-test.txt -e python");
  it("type-checks a service that hands every adapter node to StateGraph", { timeout: SLOW }, () => {
    const dir = compiled();
    // LangGraph's own types (py.typed) come from its venv; the runtime and the module from here.
    const args = ["--strict", "--no-incremental", "--cache-dir=/dev/null", "--python-executable", venvPython("langgraph"), join(projectRoot, "test", "python", "adapters", "langgraph_typed.py")];
    const result = spawnSync(mypy, args, { encoding: "utf8", env: { ...process.env, MYPYPATH: [join(projectRoot, "python", "src"), dir].join(":") }, timeout: SLOW });
    expect(result.stdout.trim()).toBe("Success: no issues found in 1 source file");
    expect(result.status).toBe(0);
  });
});

describe("seam_handoff.adapters.openai_agents in the OpenAI Agents SDK", () => {
  if (!pythonHas("openai-agents", "agents")) return missing("openai-agents", venvHow("openai-agents"));
  it("hands over through Runner with the edge's model as input_type and accept as on_handoff, and stops at a join that holds", { timeout: SLOW }, () => {
    const out = runIn("openai-agents", "openai_agents_run.py");
    // The SDK's strict tool schema of the edge's model: closed, every field present (optional ones nullable).
    expect(out["tool_schema"]).toEqual({
      additionalProperties: false,
      required: ["allowed_next_step", "artefacts", "blocked_on", "budget", "constraints", "decisions", "envelope_version", "from_agent", "goal", "handoff_id", "hop", "open_questions", "provenance", "safe_resume", "status", "task_id", "to_agent"],
    });
    expect(out["valid"]).toEqual({ refused: false, last_agent: "billing", output: "order 7731 was charged once" });
    expect(out["records"]).toEqual([
      {
        handoff_id: "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39",
        task_id: "refund-2026-11-0042",
        hop_index: 1,
        producer: "triage",
        receiver: "billing",
        accepted_at: "2027-01-15T08:00:00.000Z",
        artefacts_consumed: [],
        route: "proceed",
        constraints: ["Read-only access to the ledger"],
        warnings: [],
        lease: null,
      },
    ]);
    expect(out["replayed"]).toEqual({
      refused: true,
      route: "discard",
      rules: ["duplicate"],
      message: 'triage -> billing: the handoff was refused (discard): duplicate at /handoff_id: handoff "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39" was accepted before; it is not processed twice',
    });
    // The strict model refuses a field the edge does not have before on_handoff runs.
    expect(out["extra_field"]).toEqual({ model_error: "ModelBehaviorError" });
    // A join: the held arrival is accepted (on_accepted sees it) and ends its run with HandoffHeld; the lead's model runs once, on the arrival that fires the join.
    expect(out["join"]).toEqual({
      runs: [
        {
          held: true,
          route: "held",
          waiting: ["research/media"],
          message: "sanctions -> lead: the join of lead holds this arrival (research/sanctions): it waits for research/media; the task goes on when the join fires, so do not send it again",
        },
        { held: false, last_agent: "lead", output: "memo drafted from both screenings" },
      ],
      on_accepted: ["held", "proceed"],
      lead_model_calls: 1,
    });
  });
});

describe("seam_handoff.adapters.crewai in CrewAI", () => {
  if (!pythonHas("crewai", "crewai")) return missing("crewai", venvHow("crewai"));
  it("lets CrewAI's hook dispatch run an accepted delegation, block a refused one and one a join holds, and say why", { timeout: SLOW }, () => {
    const out = runIn("crewai", "crewai_run.py");
    expect(out).toEqual({
      valid_blocked: false,
      valid_rules: [],
      replay_blocked: true,
      replay_rules: ["duplicate"],
      duplicate_key_blocked: true,
      duplicate_key_rules: ["duplicate-key"],
      stranger_blocked: true,
      stranger_messages: ['graph refund_desk has no agent "Auditor"'],
      // What the delegating agent reads instead of CrewAI's "blocked by hook": why.
      refused_result: 'Seam: the handoff was refused (discard): duplicate at /handoff_id: handoff "0b5c3f8e-6a1d-4e2b-9f70-2d4c8a1e5b39" was accepted before; it is not processed twice',
      checked: 5,
      // A join: the held arrival is accepted but blocked (the lead does not start), with a word on what the join waits for; the one that fires it runs.
      join: [
        {
          blocked: true,
          ok: true,
          route: "held",
          result: "Seam: the join of lead holds this arrival (research/sanctions): it waits for research/media; the task goes on when the join fires, so do not send it again",
        },
        { blocked: false, ok: true, route: "proceed", result: "the memo" },
      ],
      after_unregister_blocked: false,
    });
  });

  it("checks the delegation of a whole Crew.kickoff on a scripted local model, refuses a bad one and holds one at a join", { timeout: SLOW }, () => {
    const out = runIn("crewai", "crewai_kickoff.py");
    // The valid envelope: the clerk runs once and the lead reads its answer.
    expect(out["valid"]).toEqual({ output: "order 7731 was charged once", clerk_calls: 1, lead_calls: 2, lead_read_clerk: true, lead_read_guard: null });
    // The bad one: the clerk never runs; the lead reads why, and closes the task.
    expect(out["refused"]).toEqual({
      output: "sent back to triage for repair",
      clerk_calls: 0,
      lead_calls: 2,
      lead_read_clerk: false,
      lead_read_guard:
        'Observation: Seam: the handoff was refused (repair): bad-hop-path at /hop/path/0: starts at "billing", which is not an entry of graph refund_desk (triage); bad-hop-path at /hop/path/1: does not end in this handoff, triage -> billing; bad-hop-path at /hop/path/1: steps "billing" -> "billing", which is not an edge of graph refund_desk',
    });
    expect(out["verdicts"]).toEqual([true, false]);
    expect(out["rules"]).toEqual([[], ["bad-hop-path", "bad-hop-path", "bad-hop-path"]]);
    // A join: the first analyst's handoff is held (the lead does not run, the analyst reads why and finishes); the second fires it (the lead runs once).
    expect(out["join"]).toEqual([
      {
        output: "findings handed to the lead",
        route: "held",
        lead_calls: 0,
        analyst_read: "Observation: Seam: the join of lead holds this arrival (research/sanctions): it waits for research/media; the task goes on when the join fires, so do not send it again",
        analyst_read_memo: false,
      },
      { output: "findings handed to the lead", route: "proceed", lead_calls: 1, analyst_read: null, analyst_read_memo: true },
    ]);
  });
});
