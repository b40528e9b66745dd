import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { emitPythonModule } from "../../../src/emit/python/python-module.js";
import { jsonDataProblems } from "../../../src/runtime/json-data.js";
import { checkedGraph, checkedGraphs, makeTempDir, projectRoot, readFixture, refundDesk, removeTempDirs } from "../helpers.js";
import { HERE, mypy, python, runJson, skipLine, writePythonModule } from "./python.js";

afterAll(() => removeTempDirs());

const examples = readdirSync(join(projectRoot, "examples"))
  .filter((name) => name.endsWith(".seam"))
  .sort();

/** Every graph of every example, written as Python modules into one folder. */
function writeExamples(): { dir: string; files: string[] } {
  const dir = makeTempDir("py-examples");
  const files: string[] = [];
  for (const example of examples) {
    for (const graph of checkedGraphs(readFileSync(join(projectRoot, "examples", example), "utf8"), example)) {
      const file = join(dir, `${graph.name.replace(/-/g, "_")}_validators.py`);
      writeFileSync(file, emitPythonModule(graph));
      files.push(file);
    }
  }
  return { dir, files };
}

const validEnvelope = JSON.parse(readFixture("cases", "envelopes", "valid-delegate.json")) as Record<string, unknown>;

describe("the emitted Python module", () => {
  it("is deterministic and imports nothing beyond the standard library", () => {
    const graph = refundDesk();
    const text = emitPythonModule(graph);
    expect(emitPythonModule(refundDesk())).toBe(text);
    const imports = text.match(/^(?:import|from) \S+/gm) ?? [];
    expect([...new Set(imports)].sort()).toEqual([
      "from collections",
      "from dataclasses",
      "from typing",
      "import asyncio",
      "import hashlib",
      "import inspect",
      "import math",
      "import re",
      "import time",
    ]);
    // Pure ASCII: every string from the graph went through the escaping literal writer.
    expect(/[^\x09\x0a\x20-\x7e]/.test(text)).toBe(false);
  });

  it.skipIf(python === undefined)("imports with plain python3 for every example and exposes the API", () => {
    const { dir, files } = writeExamples();
    expect(files.length).toBeGreaterThanOrEqual(examples.length);
    const script = [
      "import importlib, sys",
      `sys.path.insert(0, ${JSON.stringify(dir)})`,
      "names = sys.argv[1:]",
      "for name in names:",
      "    m = importlib.import_module(name)",
      "    assert isinstance(m.HOP_LIMIT, int) and m.HOP_LIMIT == m.GRAPH.hop_limit, name",
      "    r = m.accept({}, me=m.AGENTS[0].id)",
      "    assert not r.ok and r.rejection.route == 'repair', name",
      "    assert m.loop_signature({}).startswith('sha256:')",
      "    assert callable(m.create_loop_detector().observe) and callable(m.create_memory_seen_store().claim)",
      "    assert set(m.__all__) <= set(dir(m)), name",
      "print(len(names))",
    ].join("\n");
    const names = files.map((file) => file.slice(dir.length + 1, -3));
    const result = spawnSync(python as string, ["-c", script, ...names], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.stdout.trim()).toBe(String(names.length));
  });

  it.skipIf(mypy === undefined)("passes mypy --strict for every example", () => {
    const { files } = writeExamples();
    const result = spawnSync(mypy as string, ["--strict", "--no-incremental", "--cache-dir=/dev/null", ...files], { encoding: "utf8" });
    expect(result.stdout).toMatch(/^Success: no issues found in \d+ source files?\n$/);
    expect(result.status).toBe(0);
  });
  it.skipIf(mypy !== undefined)(skipLine("mypy"), () => {
    expect(mypy).toBeUndefined();
  });

  it.skipIf(python === undefined)("writes hostile graph and agent names as data: the module loads and holds them unchanged", () => {
    const graph = checkedGraph(readFixture("emit", "python-hostile.seam"), "python-hostile.seam");
    const file = writePythonModule(graph, "py-hostile-names");
    const script = [
      "import importlib.util, json, sys",
      "spec = importlib.util.spec_from_file_location('hostile', sys.argv[1])",
      "m = importlib.util.module_from_spec(spec)",
      "spec.loader.exec_module(m)",
      "print(json.dumps({'graph': m.GRAPH.name, 'agents': [[a.id, [t.description for t in a.terminals]] for a in m.AGENTS],",
      "  'edges': [[e.from_agent, e.to_agent, e.observe] for e in m.EDGES]}))",
    ].join("\n");
    const result = spawnSync(python as string, ["-c", script, file], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual({
      graph: "class-None",
      agents: graph.agents.map((agent) => [agent.id, agent.terminals.map((t) => t.description ?? null)]),
      edges: graph.edges.map((edge) => [edge.from, edge.to, edge.observe]),
    });
    expect(graph.agents[0]?.terminals[0]?.description).toContain("\ud800");
  });

  it.skipIf(python === undefined)("never raises on hostile envelopes, and raises TypeError for caller misuse", () => {
    const file = writePythonModule(refundDesk(), "py-hostile");
    const answer = runJson<{ envelopes: Record<string, { ok?: boolean; rules?: string[]; raised?: string }>; misuse: Record<string, string> }>(
      python as string,
      join(HERE, "hostile.py"),
      [file, "billing"],
      validEnvelope,
    );
    for (const [name, outcome] of Object.entries(answer.envelopes)) {
      expect([name, outcome.raised]).toEqual([name, undefined]);
      expect([name, outcome.ok]).toEqual([name, false]);
    }
    // With a store, an envelope whose task_id cannot be read escalates: its refusals cannot be counted.
    expect(answer.envelopes["exploding mapping"]?.rules).toEqual(["unreadable-envelope", "untracked-task"]);
    expect(answer.envelopes["exploding inner"]?.rules).toEqual(["unreadable-envelope", "untracked-task"]);
    expect(answer.envelopes["none"]?.rules).toEqual(["type", "untracked-task"]);
    expect(answer.envelopes["huge int"]?.rules).toEqual(expect.arrayContaining(["type", "required"]));
    expect(answer.envelopes["bool as numbers"]?.rules).toEqual(expect.arrayContaining(["type"]));
    expect(answer.envelopes["dunder keys"]?.rules).toEqual(expect.arrayContaining(["additional-property", "required"]));
    expect(answer.envelopes["set"]?.rules).toEqual(["not-json-data", "type", "untracked-task"]);
    expect(answer.envelopes["non-str keys"]?.rules).toEqual(expect.arrayContaining(["not-json-data"]));
    expect(answer.envelopes["lone surrogates"]?.rules).toEqual(expect.arrayContaining(["unpaired-surrogate"]));
    expect(answer.envelopes["deep dict"]?.rules).toEqual(expect.arrayContaining(["not-json-data"]));
    expect(answer.misuse).toEqual({
      "positional me": "TypeError: accept() takes 1 positional argument but 2 were given",
      "me not a str": "TypeError: accept(): me must be the receiving agent's id, a non-empty str",
      "me missing": "TypeError: accept() missing 1 required keyword-only argument: 'me'",
      "me not an agent": 'TypeError: accept(): me "nobody" is no agent of graph refund_desk; use one of triage, billing, refunds, notifier',
      "can_read not callable": "TypeError: accept(): can_read must be a function (ref, read_scope) -> bool, or None",
      "async can_read": "TypeError: accept(): can_read is an async function: use accept_async, which awaits it",
      "can_read returns an awaitable": "TypeError: accept(): can_read returned an awaitable: use accept_async, which awaits it",
      "seen not a store": "TypeError: accept(): seen must be a store with a claim(request) method, such as create_memory_seen_store()",
      "async store": "TypeError: accept(): seen.claim returned an awaitable: use accept_async with an asynchronous store",
      "now not callable": "TypeError: accept(): now must be a function returning seconds since the Unix epoch, or None",
      "now returns text": "TypeError: accept(): now() must return seconds since the Unix epoch as a number, not str",
      "now out of range": "ValueError: accept(): now() returned 1e+300, outside the times an ISO 8601 record can hold",
    });
  });

  it.skipIf(python === undefined)("runs the LangGraph node of docs/python.md as written", () => {
    const page = readFileSync(join(projectRoot, "docs", "python.md"), "utf8");
    const snippet = /```python\n([\s\S]*?)```/.exec(page)?.[1];
    expect(snippet).toContain("def billing_node(state: dict) -> dict:");
    const dir = makeTempDir("py-readme");
    writeFileSync(join(dir, "refund_desk_validators.py"), emitPythonModule(refundDesk()));
    writeFileSync(join(dir, "service.py"), snippet as string);
    const script = [
      "import json, sys",
      "sys.path.insert(0, sys.argv[1])",
      "from service import billing_node",
      "envelope = json.loads(sys.stdin.read())",
      "first = billing_node({'envelope': envelope})",
      "again = billing_node({'envelope': envelope})",
      "bad = billing_node({'envelope': {**envelope, 'handoff_id': 'not-a-uuid', 'task_id': 'another-task'}})",
      "print(json.dumps([first['route'], first['accepted']['receiver'], again, bad['route'], bad['rejection']['reasons']]))",
    ].join("\n");
    const result = spawnSync(python as string, ["-c", script, dir], { input: JSON.stringify(validEnvelope), encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual([
      "proceed",
      "billing",
      {},
      "repair",
      [{ path: "/handoff_id", rule: "format", message: "must be a valid uuid" }],
    ]);
  });

  it.skipIf(python === undefined)("words a number past the double range as the JavaScript runtime does", () => {
    const file = writePythonModule(refundDesk(), "py-infinity");
    const text = JSON.stringify(validEnvelope).replace('"tokens":1200', '"tokens":1e400').replace('"tokens":40000', '"tokens":-1e400');
    const script = [
      "import importlib.util, json, sys",
      "spec = importlib.util.spec_from_file_location('m', sys.argv[1])",
      "m = importlib.util.module_from_spec(spec)",
      "spec.loader.exec_module(m)",
      "r = m.accept(json.loads(sys.stdin.read()), me='billing')",
      "print(json.dumps([{'path': x.path, 'rule': x.rule, 'message': x.message} for x in r.rejection.reasons if x.rule == 'not-json-data']))",
    ].join("\n");
    const result = spawnSync(python as string, ["-c", script, file], { input: text, encoding: "utf8" });
    expect(result.stderr).toBe("");
    const expected = jsonDataProblems(JSON.parse(text));
    expect(expected.map((r) => r.path)).toEqual(["/budget/consumed/tokens", "/budget/limit/tokens"]);
    expect(JSON.parse(result.stdout)).toEqual(expected);
  });
});
