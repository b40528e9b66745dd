/**
 * The task ledger in the Python module `seam compile --target python` writes, against the
 * JavaScript runtime: the same verdicts and the same messages for what a hostile producer tries
 * (resends under other hop numbers, forgeries by a non-owner, a reset counter, look-alike task
 * ids, envelopes the store cannot key, ending a task no one handed on), and finish()'s misuse
 * errors in Python's own names.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createGraphAccept } from "../../../src/emit/graph-accept.js";
import type { FinishVerdict } from "../../../src/runtime/finish.js";
import { createMemorySeenStore } from "../../../src/runtime/seen-store.js";
import { ledgerEnvelope, ledgerGraph as graph, type Envelope } from "../../runtime/ledger-envelopes.js";
import { removeTempDirs } from "../helpers.js";
import { drive, HERE, python, runJson, writePythonModule } from "./python.js";

afterAll(() => removeTempDirs());

type Step = { now: number; me: string; envelope: unknown } | { now: number; finish: { task: string; me: string; terminal: string; outcome: string } };

const T0 = Date.parse("2026-12-01T09:00:00Z");
const [C, I, D] = ["concierge", "invoices", "diagnostics"];

let ids = 0;
let clock = T0;
function hop(task: unknown, path: string[], edit: (e: Envelope) => void = () => {}): Step {
  const envelope = ledgerEnvelope(task, path, `6a7b8c9d-0e1f-4a2b-8c3d-${String(++ids).padStart(12, "0")}`, edit);
  return { now: (clock += 1000), me: path[path.length - 1] as string, envelope };
}
const end = (task: string, me: string, terminal: string): Step => ({ now: (clock += 1000), finish: { task, me, terminal, outcome: "complete" } });
const noConstraints = (e: Envelope): void => {
  delete e["constraints"];
};

const steps: Step[] = [
  // Resends under other hop numbers, and a non-owner's forgeries.
  hop("r", [C, I]),
  hop("r", [C, I, D], (e) => (e["from_agent"] = { id: C, role: "supervisor" })),
  ...[2, 5, 0].map((index) => hop("r", [C, I, C], (e) => ((e["hop"].index = index), (e["artefacts"] = [])))),
  // A reset counter, and a replay of the latest hop.
  hop("s", [C, I]),
  hop("s", [C, I, C]),
  hop("s", [C, I]),
  hop("s", [C, I, C]),
  // Look-alike and fresh task ids at hop 3, and hop 0.
  ...["s ", "s\u200b", "S", "new"].map((task) => hop(task, [C, I, C, D])),
  hop("z", [C, I], (e) => (e["hop"].index = 0)),
  // Envelopes the store cannot key.
  hop("u", [C, I], (e) => (noConstraints(e), delete e["handoff_id"])),
  hop("u", [C, I], (e) => (noConstraints(e), (e["hop"].index = "1"))),
  hop(42, [C, I]),
  // Who ends a task.
  end("e", D, "ticket_closed"),
  end("e", "front_desk", "answered"),
  hop("e", [C, I], (e) => delete e["handoff_id"]),
  hop("f", [C, D]),
  end("f", C, "resolved"),
  end("f", D, "ticket_closed"),
];

function jsRun(): unknown[] {
  const { accept, finish } = createGraphAccept(graph);
  const seen = createMemorySeenStore();
  return steps.map((step) => {
    if ("finish" in step) {
      const { task, me, terminal, outcome } = step.finish;
      const v: FinishVerdict = finish(task, { me, terminal, outcome: outcome as "complete", seen, now: () => step.now });
      const get = (key: string): unknown => (v as unknown as Record<string, unknown>)[key] ?? null;
      return { ok: v.ok, rule: get("rule"), message: get("message"), owner: get("owner"), record: get("record") };
    }
    return JSON.parse(JSON.stringify(accept(step.envelope, { me: step.me, seen, now: () => step.now }))) as unknown;
  });
}

describe.skipIf(python === undefined)("the task ledger in Python", () => {
  const module = python === undefined ? "" : writePythonModule(graph, "py-ledger");

  it("gives the JavaScript runtime's verdicts and messages, step by step", () => {
    const expected = jsRun();
    const actual = drive<unknown[]>(python as string, module, { op: "ledger", steps });
    expect(actual).toHaveLength(steps.length);
    steps.forEach((_step, i) => expect([i, actual[i]]).toEqual([i, expected[i]]));
    // Not vacuous: the steps reach every new answer.
    const text = JSON.stringify(expected);
    for (const needle of ["untracked-task", "cannot be its first", "so its first hop is 1", "only an entry agent (concierge, front_desk)", '"attempt":3', "hop-reset"]) expect(text).toContain(needle);
  });

  it("names a missing option of finish() in Python's own terms", () => {
    const script = [
      "import json, sys",
      "sys.path.insert(0, sys.argv[2])",
      "from emitted import load",
      "m = load(sys.argv[1])",
      "seen = m.create_memory_seen_store()",
      "calls = {",
      "  'outcome': dict(me='concierge', terminal='resolved', outcome=None),",
      "  'terminal': dict(me='concierge', terminal=None, outcome='complete'),",
      "  'terminal of an agent without': dict(me='invoices', terminal=None, outcome='complete'),",
      "  'me': dict(me=None, terminal='resolved', outcome='complete'),",
      "}",
      "out = {}",
      "for name, kwargs in calls.items():",
      "    try:",
      "        m.finish('t', seen=seen, **kwargs)",
      "        out[name] = 'no error'",
      "    except TypeError as error:",
      "        out[name] = str(error)",
      "json.dump(out, sys.stdout)",
    ].join("\n");
    const file = join(module, "..", "finish_misuse.py");
    writeFileSync(file, script);
    expect(runJson(python as string, file, [module, HERE], null)).toEqual({
      outcome: "finish(): outcome is missing: terminal resolved of concierge has the outcome complete",
      terminal: "finish(): terminal is missing: agent concierge declares resolved, to_person",
      "terminal of an agent without": "finish(): terminal is missing: agent invoices declares no terminal, so it cannot end a task",
      me: "finish(): me is missing: name the agent taking the terminal action",
    });
  });
});
